package applog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// A backend string of any size takes at most MaxValueRunes code points of
// its log line: 100 KB tool ids, turn ids and error texts stay one short
// line each.
func TestLongValuesAreCut(t *testing.T) {
	var buf bytes.Buffer
	lg := New(&buf, slog.LevelInfo).With("turn_id", strings.Repeat("7", 100_000))
	huge := strings.Repeat("界", 100_000)
	lg.Info("push.tool_status", "tool_id", huge, "err", errors.New(huge), "state", "running",
		slog.Group("g", "inner", huge))
	if buf.Len() > 4*1024 {
		t.Fatalf("one line of %d bytes", buf.Len())
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"tool_id", "err", "turn_id"} {
		s, _ := m[k].(string)
		if !strings.HasSuffix(s, CutMark) || utf8.RuneCountInString(strings.TrimSuffix(s, CutMark)) != MaxValueRunes {
			t.Errorf("%s = %.40q… (%d runes), want %d runes and the cut mark", k, s, utf8.RuneCountInString(s), MaxValueRunes)
		}
	}
	if g, _ := m["g"].(map[string]any); !strings.HasSuffix(g["inner"].(string), CutMark) {
		t.Errorf("a grouped value was not cut")
	}
	if m["state"] != "running" {
		t.Errorf("a short value changed: %v", m["state"])
	}
}

func TestCutKeepsValidUTF8(t *testing.T) {
	s := strings.Repeat("a", MaxValueRunes-1) + "\xff\xfe" + strings.Repeat("b", 10)
	if got := Cut(s); !utf8.ValidString(got) {
		t.Fatalf("Cut gave invalid UTF-8: %q", got)
	}
	if Cut("short") != "short" {
		t.Fatal("a short value changed")
	}
}

// A day's log is rotated by size and the number of rotated files is
// capped: a flood cannot fill the disk.
func TestDailyFileRotatesBySize(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.Local)
	d := NewDailyFile(dir, "yui", func() time.Time { return now })
	d.MaxBytes, d.Keep = 1000, 2
	lg := New(d, slog.LevelInfo)
	for i := range 200 {
		lg.Info("push.tool_status", "n", i, "tool_id", strings.Repeat("x", 150))
	}
	d.Close()
	base := d.Path(now)
	ents, _ := os.ReadDir(dir)
	var names []string
	total := int64(0)
	for _, e := range ents {
		fi, _ := e.Info()
		names = append(names, e.Name())
		total += fi.Size()
		if fi.Size() > 1000 {
			t.Errorf("%s is %d bytes, over the 1000 limit", e.Name(), fi.Size())
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v", e.Name(), fi.Mode().Perm())
		}
	}
	want := []string{filepath.Base(base), filepath.Base(base) + ".1", filepath.Base(base) + ".2"}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Fatalf("files %v, want %v", names, want)
	}
	last, _ := os.ReadFile(base)
	if !strings.Contains(string(last), `"n":199`) {
		t.Fatalf("the newest line is not in the current file: %s", last)
	}
	// A reopened file (a restart) continues counting from its size.
	d2 := NewDailyFile(dir, "yui", func() time.Time { return now })
	d2.MaxBytes, d2.Keep = 1000, 2
	New(d2, slog.LevelInfo).Info("after_restart", "pad", strings.Repeat("y", 150))
	d2.Close()
	if fi, _ := os.Stat(base); fi.Size() > 1000 {
		t.Fatalf("after a restart the file grew to %d bytes", fi.Size())
	}
}
