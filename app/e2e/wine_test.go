//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/app/demobackend"
)

// Yui's Windows build run under Wine (docs/windows.md). make wine-test
// sets YUI_WIN_BIN (build/bin/yui.exe), YUI_WINE (/usr/lib/wine/wine64),
// YUI_VERSION, and a private WINEPREFIX (WINEDEBUG=-all) that has the
// ProcessPrng DLL a Go 1.26 program needs under Wine 8.0.

func wine(t *testing.T) (wineBin, exe string) {
	t.Helper()
	exe, wineBin = distEnv(t, "YUI_WIN_BIN"), distEnv(t, "YUI_WINE")
	if os.Getenv("WINEPREFIX") == "" {
		t.Skip("WINEPREFIX not set (run make wine-test)")
	}
	return wineBin, exe
}

func TestWineVersionE2E(t *testing.T) {
	w, exe := wine(t)
	want := "yui " + distEnv(t, "YUI_VERSION")
	ctx, cancel := context.WithTimeout(context.Background(), e2eLimit)
	defer cancel()
	for _, arg := range []string{"--version", "version"} {
		out, err := exec.CommandContext(ctx, w, exe, arg).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != want {
			t.Fatalf("yui.exe %s: %q, %v; want %q", arg, out, err, want)
		}
	}
}

// yui.exe console against the demo backend (on Linux, loopback): a typed
// line gets the demo's spoken reply, and the end of input ends the console
// with 0 once the turn is over.
func TestWineConsoleAgainstTheDemoBackendE2E(t *testing.T) {
	w, exe := wine(t)
	dir := t.TempDir()
	const key = "wine-demo-key"
	keyFile := filepath.Join(dir, "key")
	if err := os.WriteFile(keyFile, []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := demobackend.New(demobackend.Config{Key: key, TimeScale: 0.1})
	ctx, cancel := context.WithTimeout(context.Background(), e2eLimit)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- b.Serve(ctx, ln) }()
	defer func() { cancel(); b.Close(); <-served }()

	cmd := exec.CommandContext(ctx, w, exe, "console", "--json", "--speech-rate", "0",
		"--url", "http://"+ln.Addr().String(), "--key-file", keyFile,
		"--config-dir", filepath.Join(dir, "config"), "--log-dir", filepath.Join(dir, "logs"))
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	events := make(chan map[string]any, 64)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				events <- m
			}
		}
		io.Copy(io.Discard, out)
	}()
	await := func(what string, match func(map[string]any) bool) map[string]any {
		t.Helper()
		for {
			select {
			case m, ok := <-events:
				if !ok {
					t.Fatalf("the console ended before %s; stderr: %s", what, stderr.String())
				}
				if match(m) {
					return m
				}
			case <-ctx.Done():
				t.Fatalf("no %s within %v; stderr: %s", what, e2eLimit, stderr.String())
			}
		}
	}
	start := time.Now()
	await("socket ready", func(m map[string]any) bool { return m["event"] == "socket" && m["state"] == "ready" })
	io.WriteString(in, "hello\n")
	sent := await("turn_sent", func(m map[string]any) bool { return m["event"] == "turn_sent" })
	said := await("the reply's first sentence", func(m map[string]any) bool {
		return m["event"] == "speech_start" && m["turn_id"] == sent["turn_id"] && m["text"] != ""
	})
	t.Logf("reply %q %v after the socket was ready", said["text"], time.Since(start).Round(time.Millisecond))
	in.Close()
	for range events {
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("yui.exe console: %v; stderr: %s", err, stderr.String())
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "logs", "yui-*.log"))
	if len(logs) == 0 {
		t.Fatal("no app log written under --log-dir")
	}
}
