package autostart

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// validate runs desktop-file-validate on path. make test sets
// YUI_REQUIRE_TOOLS=1 (it installs desktop-file-utils), so there a missing
// validator fails the test instead of skipping it.
func validate(t *testing.T, path string) {
	t.Helper()
	bin, err := exec.LookPath("desktop-file-validate")
	if err != nil {
		if os.Getenv("YUI_REQUIRE_TOOLS") != "" {
			t.Fatal("desktop-file-validate is missing (apt-get install desktop-file-utils)")
		}
		t.Skip("desktop-file-validate not installed")
	}
	out, err := exec.Command(bin, path).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("desktop-file-validate %s: %v\n%s", path, err, out)
	}
}

func TestEntryWrittenValidatedAndRemoved(t *testing.T) {
	home := t.TempDir()
	e, err := New("/usr/bin/yui", nil, home)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(home, "autostart", "yui.desktop")
	if e.Where() != want {
		t.Fatalf("Where = %s, want %s", e.Where(), want)
	}
	if on, err := e.Enabled(); err != nil || on {
		t.Fatalf("before: Enabled = %v, %v", on, err)
	}
	if err := e.Set(true); err != nil {
		t.Fatal(err)
	}
	if on, err := e.Enabled(); err != nil || !on {
		t.Fatalf("after Set(true): Enabled = %v, %v", on, err)
	}
	validate(t, want)
	keys := entryKeys(mustRead(t, want))
	if keys["Exec"] != "/usr/bin/yui" || keys["Type"] != "Application" || keys["Icon"] != "yui" {
		t.Fatalf("entry keys %v", keys)
	}
	if err := e.Set(false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(want); !os.IsNotExist(err) {
		t.Fatalf("entry still there after Set(false): %v", err)
	}
	if on, err := e.Enabled(); err != nil || on {
		t.Fatalf("after Set(false): Enabled = %v, %v", on, err)
	}
	// Switching off twice is no error.
	if err := e.Set(false); err != nil {
		t.Fatal(err)
	}
}

func TestXDGConfigHomeIsUsed(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	e, err := New("/opt/yui/yui", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if e.Where() != filepath.Join(home, "autostart", "yui.desktop") {
		t.Fatalf("Where = %s", e.Where())
	}
}

func TestUserSwitchedOffCountsAsOff(t *testing.T) {
	for _, extra := range []string{"Hidden=true", "X-GNOME-Autostart-enabled=false"} {
		home := t.TempDir()
		e, _ := New("/usr/bin/yui", nil, home)
		if err := e.Set(true); err != nil {
			t.Fatal(err)
		}
		b := mustRead(t, e.Where())
		b = []byte(strings.Replace(string(b), "X-GNOME-Autostart-enabled=true\n", "", 1) + extra + "\n")
		os.WriteFile(e.Where(), b, 0o644)
		if on, err := e.Enabled(); err != nil || on {
			t.Fatalf("%s: Enabled = %v, %v", extra, on, err)
		}
		// Switching on again replaces it.
		if err := e.Set(true); err != nil {
			t.Fatal(err)
		}
		if on, _ := e.Enabled(); !on {
			t.Fatalf("%s: still off after Set(true)", extra)
		}
	}
}

func TestOddPathsAreQuoted(t *testing.T) {
	for _, exe := range []string{
		"/home/ann/My Apps/yui",
		`/home/ann/we"ird/yui`,
		"/home/ann/100%/yui",
		`/home/ann/back\slash/$HOME/yui`,
	} {
		home := t.TempDir()
		e, err := New(exe, []string{"--config-dir", "/tmp/a b"}, home)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Set(true); err != nil {
			t.Fatal(err)
		}
		validate(t, e.Where())
		got := parseExec(t, entryKeys(mustRead(t, e.Where()))["Exec"])
		if want := []string{exe, "--config-dir", "/tmp/a b"}; !slices.Equal(got, want) {
			t.Errorf("Exec of %q parses back as %q", exe, got)
		}
	}
}

func TestRelativeProgramRefused(t *testing.T) {
	if _, err := New("build/bin/yui", nil, t.TempDir()); err == nil {
		t.Fatal("a relative program path was accepted")
	}
}

// parseExec undoes ExecLine the way the specification tells a launcher
// to: first the string-value escapes, then the quoting, then %%.
func parseExec(t *testing.T, v string) []string {
	t.Helper()
	// String-value escapes.
	var s strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
			switch v[i] {
			case 's':
				s.WriteByte(' ')
			case 'n':
				s.WriteByte('\n')
			case 't':
				s.WriteByte('\t')
			case 'r':
				s.WriteByte('\r')
			default:
				s.WriteByte(v[i])
			}
			continue
		}
		s.WriteByte(v[i])
	}
	line := s.String()
	var args []string
	var cur strings.Builder
	inQ, have := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inQ && c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
		case c == '"':
			inQ, have = !inQ, true
		case !inQ && c == ' ':
			if have {
				args = append(args, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteByte(c)
			have = true
		}
	}
	if inQ {
		t.Fatalf("unterminated quote in %q", v)
	}
	if have {
		args = append(args, cur.String())
	}
	for i := range args {
		args[i] = strings.ReplaceAll(args[i], "%%", "%")
	}
	return args
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The autostart entry and the menu entry (build/linux/yui.desktop, what
// the .deb installs) name the app alike: issue 21 found "Desktop pet"
// beside "Desktop Pet".
func TestEntryNamesTheAppAsTheMenuEntryDoes(t *testing.T) {
	menu, err := os.ReadFile(filepath.Join("..", "..", "build", "linux", "yui.desktop"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New("/usr/bin/yui", nil, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	keys := func(b []byte) map[string]string {
		m := map[string]string{}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "[") && l != "[Desktop Entry]" {
				break // an action's group
			}
			if k, v, ok := strings.Cut(l, "="); ok {
				m[k] = v
			}
		}
		return m
	}
	m, a := keys(menu), keys(e.desktopFile())
	for _, k := range []string{"Name", "GenericName", "Icon", "Type", "Version"} {
		if m[k] == "" || m[k] != a[k] {
			t.Errorf("%s: the menu entry says %q, the autostart entry %q", k, m[k], a[k])
		}
	}
	if a["GenericName"] != GenericName {
		t.Errorf("GenericName %q, want %q", a["GenericName"], GenericName)
	}
}
