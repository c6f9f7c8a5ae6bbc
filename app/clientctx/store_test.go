package clientctx

import (
	"yui/app/atomicfile"

	"bytes"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)) }

func TestStoreRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenPrevious(dir, "yui", quiet())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(); ok {
		t.Fatal("fresh store holds a record")
	}
	at := time.Date(2026, 9, 14, 15, 4, 14, 0, time.UTC)
	rec := NewInterrupted("user.text_submitted", at, "heard", "owed")
	if err := s.Set(rec); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(s.Path())
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file %v mode %v", err, st)
	}
	s2, err := OpenPrevious(dir, "yui", quiet())
	if err != nil {
		t.Fatal(err)
	}
	got, ok := s2.Get()
	if !ok || got.Spoken != "heard" || got.Unspoken != "owed" || !got.At.Equal(at) || got.Outcome != Interrupted {
		t.Fatalf("reloaded %+v %v", got, ok)
	}
}

func TestStoreKeepsFailedTurnID(t *testing.T) {
	dir := t.TempDir()
	s, _ := OpenPrevious(dir, "p", quiet())
	if err := s.Set(NewFailed("user.text_submitted", time.Now(), "1789365854947")); err != nil {
		t.Fatal(err)
	}
	s2, _ := OpenPrevious(dir, "p", quiet())
	if got, _ := s2.Get(); got.TurnID != "1789365854947" {
		t.Fatalf("turn id lost: %+v", got)
	}
}

func TestStoreClear(t *testing.T) {
	dir := t.TempDir()
	s, _ := OpenPrevious(dir, "p", quiet())
	s.Set(NewFailed("t", time.Now(), ""))
	if err := s.Clear(); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(); ok {
		t.Fatal("record held after Clear")
	}
	if _, err := os.Stat(s.Path()); !os.IsNotExist(err) {
		t.Fatalf("file survives Clear: %v", err)
	}
	if err := s.Clear(); err != nil {
		t.Fatalf("second Clear: %v", err)
	}
}

func TestStorePerPreset(t *testing.T) {
	dir := t.TempDir()
	a, _ := OpenPrevious(dir, "alpha", quiet())
	b, _ := OpenPrevious(dir, "beta", quiet())
	a.Set(NewFailed("a", time.Now(), "1"))
	if _, ok := b.Get(); ok {
		t.Fatal("presets share a record")
	}
	b2, _ := OpenPrevious(dir, "beta", quiet())
	if _, ok := b2.Get(); ok {
		t.Fatal("preset beta loaded alpha's file")
	}
}

func TestStoreOddPresetNamesStayInDir(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"../escape", "a/b", "", "名前", ".."} {
		s, err := OpenPrevious(dir, name, quiet())
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(s.Path()) != dir {
			t.Fatalf("preset %q writes outside dir: %s", name, s.Path())
		}
		if err := s.Set(NewFailed("t", time.Now(), "")); err != nil {
			t.Fatalf("preset %q: %v", name, err)
		}
	}
	if a, b := atomicfile.SafeName("a/b"), atomicfile.SafeName("a_b"); a == b {
		t.Fatal("distinct presets share a file")
	}
}

func TestStoreCorruptFileSetAside(t *testing.T) {
	for name, content := range map[string]string{
		"not json":        "{nope",
		"invalid outcome": `{"trigger":"t","outcome":"complete","at":"2026-01-01T00:00:00Z"}`,
		"no time":         `{"trigger":"t","outcome":"failed"}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			var logBuf bytes.Buffer
			s0, _ := OpenPrevious(dir, "p", quiet())
			os.WriteFile(s0.Path(), []byte(content), 0o600)
			s, err := OpenPrevious(dir, "p", slog.New(slog.NewTextHandler(&logBuf, nil)))
			if err != nil {
				t.Fatalf("corrupt file is an error: %v", err)
			}
			if _, ok := s.Get(); ok {
				t.Fatal("corrupt record held")
			}
			bad, err := os.ReadFile(s.Path() + ".bad")
			if err != nil || string(bad) != content {
				t.Fatalf("corrupt file not kept aside: %v %q", err, bad)
			}
			if !strings.Contains(logBuf.String(), "previous_turn.corrupt") {
				t.Fatalf("not logged: %s", logBuf.String())
			}
			if err := s.Set(NewFailed("t", time.Now(), "")); err != nil {
				t.Fatalf("store unusable after corrupt file: %v", err)
			}
		})
	}
}

func TestStoreSetRejectsInvalidRecord(t *testing.T) {
	s, _ := OpenPrevious(t.TempDir(), "p", quiet())
	if err := s.Set(Record{Trigger: "t", Outcome: "done", At: time.Now()}); err == nil {
		t.Fatal("invalid outcome accepted")
	}
	if _, ok := s.Get(); ok {
		t.Fatal("invalid record held")
	}
}

func TestStoreWriteFailureKeepsRecordInMemory(t *testing.T) {
	dir := t.TempDir()
	s, _ := OpenPrevious(dir, "p", quiet())
	os.MkdirAll(s.Path(), 0o700) // a directory where the file should go
	os.WriteFile(filepath.Join(s.Path(), "x"), nil, 0o600)
	rec := NewFailed("t", time.Now(), "5")
	if err := s.Set(rec); err == nil || !strings.Contains(err.Error(), "save previous-turn record") {
		t.Fatalf("want wrapped write error, got %v", err)
	}
	if got, ok := s.Get(); !ok || got.TurnID != "5" {
		t.Fatal("record lost on write failure")
	}
}

func TestStoreReadErrorStillUsable(t *testing.T) {
	dir := t.TempDir()
	s0, _ := OpenPrevious(dir, "p", quiet())
	os.MkdirAll(s0.Path(), 0o700) // reading a directory fails
	s, err := OpenPrevious(dir, "p", quiet())
	if err == nil || s == nil {
		t.Fatalf("want a usable store and an error, got %v %v", s, err)
	}
}

func TestStoreConcurrentUse(t *testing.T) {
	s, _ := OpenPrevious(t.TempDir(), "p", quiet())
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			if i%2 == 0 {
				s.Set(NewFailed("t", time.Now(), "1"))
			} else {
				s.Get()
				s.Clear()
			}
		})
	}
	wg.Wait()
}

// failReads makes reads of the record file fail with EIO until the
// returned function is called.
func failReads(t *testing.T) (heal func()) {
	t.Helper()
	var mu sync.Mutex
	failing := true
	readFile = func(p string) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		if failing {
			return nil, &fs.PathError{Op: "read", Path: p, Err: syscall.EIO}
		}
		return os.ReadFile(p)
	}
	t.Cleanup(func() { readFile = os.ReadFile })
	return func() { mu.Lock(); failing = false; mu.Unlock() }
}

func TestStoreReadErrorNeverWritesOverTheFile(t *testing.T) {
	dir := t.TempDir()
	s0, _ := OpenPrevious(dir, "p", quiet())
	if err := s0.Set(NewFailed("t", time.Now(), "41")); err != nil {
		t.Fatal(err)
	}
	heal := failReads(t)
	var logBuf bytes.Buffer
	s, err := OpenPrevious(dir, "p", slog.New(slog.NewTextHandler(&logBuf, nil)))
	if err == nil {
		t.Fatal("no read error")
	}
	if err := s.Set(NewFailed("t", time.Now(), "42")); err == nil {
		t.Fatal("Set wrote over a file it could not read")
	}
	if got, ok := s.Get(); !ok || got.TurnID != "42" {
		t.Fatalf("record not held in memory: %+v", got)
	}
	if err := s.Clear(); err == nil {
		t.Fatal("Clear removed a file it could not read")
	}
	if b, err := os.ReadFile(s.Path()); err != nil || !strings.Contains(string(b), `"41"`) {
		t.Fatalf("file touched after a read error: %v %s", err, b)
	}
	if !strings.Contains(logBuf.String(), "previous_turn.not_saved") {
		t.Fatalf("refusal not logged: %s", logBuf.String())
	}
	heal()
	if err := s.Set(NewFailed("t", time.Now(), "43")); err != nil {
		t.Fatal(err)
	}
	s2, _ := OpenPrevious(dir, "p", quiet())
	if got, _ := s2.Get(); got.TurnID != "43" {
		t.Fatalf("after recovery the file holds %+v", got)
	}
}

func TestStoreSecondCorruptionKeptBesideTheFirst(t *testing.T) {
	dir := t.TempDir()
	s0, _ := OpenPrevious(dir, "p", quiet())
	os.WriteFile(s0.Path(), []byte("{first"), 0o600)
	OpenPrevious(dir, "p", quiet())
	os.WriteFile(s0.Path(), []byte("{second"), 0o600)
	OpenPrevious(dir, "p", quiet())
	for name, want := range map[string]string{".bad": "{first", ".bad.1": "{second"} {
		if b, err := os.ReadFile(s0.Path() + name); err != nil || string(b) != want {
			t.Fatalf("%s: %v %q, want %q", name, err, b, want)
		}
	}
}
