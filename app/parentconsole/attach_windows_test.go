package parentconsole

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

const childEnv = "YUI_PARENTCONSOLE_CHILD"

// A program whose standard handles the parent set (a pipe, a file: what
// `yui console | more` or a script's redirection gives) keeps them: Attach
// leaves them alone and what it prints lands where the parent pointed it.
// Run under Wine by make wine-test (docs/windows.md); the attach to a
// parent's console itself needs a GUI-subsystem program started from a
// console with nothing redirected, which a test process cannot be.
func TestRedirectedHandlesAreKept(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		Attach()
		fmt.Println("out after attach")
		fmt.Fprintln(os.Stderr, "err after attach")
		os.Exit(0)
	}
	dir := t.TempDir()
	outPath, errPath := filepath.Join(dir, "out.txt"), filepath.Join(dir, "err.txt")
	out, _ := os.Create(outPath)
	errf, _ := os.Create(errPath)
	cmd := exec.Command(os.Args[0], "-test.run=^TestRedirectedHandlesAreKept$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdout, cmd.Stderr = out, errf
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	out.Close()
	errf.Close()
	for path, want := range map[string]string{outPath: "out after attach", errPath: "err after attach"} {
		b, _ := os.ReadFile(path)
		if !strings.Contains(string(b), want) {
			t.Errorf("%s holds %q, want %q", filepath.Base(path), b, want)
		}
	}
}

// A handle that is not there (nil, or a GUI program's empty one) is unset;
// a file is not.
func TestUnsetHandles(t *testing.T) {
	if !unset(nil) {
		t.Error("nil is set")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if unset(f) {
		t.Error("a file is unset")
	}
	if !unset(os.NewFile(uintptr(0), "none")) {
		t.Error("a zero handle is set")
	}
}

// The attach itself: a GUI-subsystem program with no standard handles,
// started by a process that has a console (what `yui console` typed in a
// terminal is on Windows), finds the parent's console, and what it prints
// after Attach shows there. The child is this test binary built as a GUI
// program (go test -c -ldflags -H=windowsgui), named by
// YUI_PARENTCONSOLE_GUI_EXE, started with CreateProcess without
// STARTF_USESTDHANDLES, without inheriting handles and DETACHED_PROCESS
// (Wine, unlike Windows, hands a GUI child its parent's console handles
// otherwise); it writes its verdict to a file, since its own stdout is
// what is tested. make wine-test runs this on a pseudo-terminal (so Wine
// gives the parent a console) and finds the child's line in its
// transcript. Skipped unless YUI_PARENTCONSOLE_GUI_EXE is set.
func TestAttachToTheParentsConsole(t *testing.T) {
	if result := os.Getenv("YUI_PARENTCONSOLE_RESULT"); result != "" {
		attachChild(result)
		return
	}
	exe := os.Getenv("YUI_PARENTCONSOLE_GUI_EXE")
	if exe == "" {
		t.Skip("needs the GUI-subsystem build of this test (make wine-test)")
	}
	result := filepath.Join(t.TempDir(), "verdict.txt")
	t.Setenv("YUI_PARENTCONSOLE_RESULT", result)
	cmdLine := windows.StringToUTF16Ptr(windows.EscapeArg(exe) + " -test.run=^TestAttachToTheParentsConsole$")
	si := &windows.StartupInfo{Cb: uint32(unsafe.Sizeof(windows.StartupInfo{}))}
	var pi windows.ProcessInformation
	if err := windows.CreateProcess(nil, cmdLine, nil, nil, false, windows.CREATE_UNICODE_ENVIRONMENT|windows.DETACHED_PROCESS, nil, nil, si, &pi); err != nil {
		t.Fatalf("CreateProcess: %v", err)
	}
	defer windows.CloseHandle(pi.Thread)
	defer windows.CloseHandle(pi.Process)
	if ev, err := windows.WaitForSingleObject(pi.Process, 60_000); err != nil || ev != windows.WAIT_OBJECT_0 {
		t.Fatalf("the child did not end: %v %v", ev, err)
	}
	b, err := os.ReadFile(result)
	if err != nil || strings.TrimSpace(string(b)) != "PASS" {
		t.Fatalf("the child says %q (%v)", b, err)
	}
}

// attachChild is the GUI child's side: no handles before Attach, the
// console's after, and a line written to it.
func attachChild(result string) {
	verdict := func(s string) { os.WriteFile(result, []byte(s+"\n"), 0o600) }
	if !unset(os.Stdout) || !unset(os.Stderr) {
		verdict("FAIL: the standard handles were set before Attach (not a GUI program, or inherited)")
		os.Exit(1)
	}
	Attach()
	if unset(os.Stdout) || unset(os.Stderr) {
		verdict("FAIL: no console after Attach")
		os.Exit(1)
	}
	if _, err := fmt.Fprintln(os.Stdout, "yui-attached-to-the-parent-console"); err != nil {
		verdict("FAIL: write to the console: " + err.Error())
		os.Exit(1)
	}
	verdict("PASS")
	os.Exit(0)
}
