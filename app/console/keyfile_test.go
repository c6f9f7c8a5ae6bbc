package console_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yui/app/keyarg"
)

// The key reaches the backend from --key-file or $YUI_KEY, never from the
// command line, and no log file holds it. The old --key still connects,
// with a warning on stderr.
func TestConsoleKeyFromFileOrEnvironment(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(keyFile, []byte(e2eKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  string
		args []string
		warn bool
	}{
		{name: "key file", args: []string{"--key-file", keyFile}},
		{name: "environment", env: e2eKey},
		{name: "key flag", args: []string{"--key", e2eKey}, warn: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(keyarg.EnvVar, tc.env)
			b := newBackend(t)
			logs := t.TempDir()
			args := append([]string{"--json", "--config-dir", t.TempDir(), "--log-dir", logs, "--url", b.http.URL, "--speech-rate", "0"}, tc.args...)
			c := startConsole(t, args...)
			c.waitEvent("socket", map[string]any{"state": "ready"})
			c.finish()
			warned := strings.Contains(c.stderr.String(), "--key-file")
			if warned != tc.warn {
				t.Fatalf("warning on stderr = %v, want %v: %q", warned, tc.warn, c.stderr.String())
			}
			files, _ := filepath.Glob(filepath.Join(logs, "*"))
			if len(files) == 0 {
				t.Fatal("no log files written")
			}
			for _, f := range files {
				b, _ := os.ReadFile(f)
				if strings.Contains(string(b), e2eKey) {
					t.Fatalf("%s holds the key", f)
				}
			}
		})
	}
}
