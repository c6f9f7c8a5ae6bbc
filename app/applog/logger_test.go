package applog

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"
)

func TestJSONLinesWithEventAndRedaction(t *testing.T) {
	var buf bytes.Buffer
	lg := New(&buf, slog.LevelInfo)
	lg.Info("ws_open", "url", "ws://x/ws", "key", "sk-secret", "Token", "t0k")
	lg.Debug("hidden")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("lines %q", lines)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &m); err != nil {
		t.Fatal(err)
	}
	if m["event"] != "ws_open" || m["ts"] == nil || m["level"] != "INFO" {
		t.Fatalf("record %v", m)
	}
	if strings.Contains(buf.String(), "sk-secret") || strings.Contains(buf.String(), "t0k") {
		t.Fatalf("secret logged: %s", buf.String())
	}
}

func TestDailyFileSwitchesByDate(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 29, 23, 59, 0, 0, time.Local)
	d := NewDailyFile(dir, "yui", func() time.Time { return now })
	lg := New(d, slog.LevelInfo)
	lg.Info("one")
	now = now.Add(2 * time.Minute)
	lg.Info("two")
	d.Close()
	a, err := os.ReadFile(dir + "/yui-2026-11-29.log")
	if err != nil || !strings.Contains(string(a), `"one"`) || strings.Contains(string(a), `"two"`) {
		t.Fatalf("day 1 file %q %v", a, err)
	}
	b, err := os.ReadFile(dir + "/yui-2026-11-30.log")
	if err != nil || !strings.Contains(string(b), `"two"`) {
		t.Fatalf("day 2 file %q %v", b, err)
	}
	fi, _ := os.Stat(dir + "/yui-2026-11-30.log")
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
}

// Each key once per line: layered loggers and a record's own attribute
// replace an earlier one of the same key, in its place; ts and event keep
// their names.
func TestEveryKeyOncePerLine(t *testing.T) {
	var buf bytes.Buffer
	lg := New(&buf, slog.LevelInfo).With("proc", "core").With("preset", "p-1")
	lg.With("proc", "demo").Info("demo.turn", "preset", "p-2", "n", 1)
	line := strings.TrimSpace(buf.String())
	for _, k := range []string{`"proc"`, `"preset"`, `"ts"`, `"event"`} {
		if strings.Count(line, k+":") != 1 {
			t.Fatalf("key %s not once in %s", k, line)
		}
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	if m["proc"] != "demo" || m["preset"] != "p-2" || m["event"] != "demo.turn" || m["n"] != float64(1) {
		t.Fatalf("line %v", m)
	}
	if strings.Index(line, `"proc"`) > strings.Index(line, `"preset"`) {
		t.Fatalf("a replaced key moved: %s", line)
	}
}
