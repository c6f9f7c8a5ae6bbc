package settings

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// validFile writes a usable settings file and returns its bytes.
func validFile(t *testing.T, dir string) []byte {
	t.Helper()
	st, _, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOpenTightensAFileOthersCanRead(t *testing.T) {
	dir := t.TempDir()
	validFile(t, dir)
	p := filepath.Join(dir, FileName)
	os.Chmod(p, 0o644)
	_, rep, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tightened != 0o644 {
		t.Fatalf("report Tightened = %v, want the 0644 found", rep.Tightened)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v after Open, want 0600", fi.Mode().Perm())
	}
	var buf bytes.Buffer
	rep.Log(slog.New(slog.NewJSONHandler(&buf, nil)), p)
	if !strings.Contains(buf.String(), `"msg":"settings_mode_tightened"`) || !strings.Contains(buf.String(), `"was":"0644"`) {
		t.Fatalf("log %s", buf.String())
	}
	if _, rep, _ := Open(dir); rep.Tightened != 0 {
		t.Fatalf("a 0600 file reported tightened: %v", rep.Tightened)
	}
}

func TestOpenRemovesTempFilesACrashLeft(t *testing.T) {
	dir := t.TempDir()
	validFile(t, dir)
	stale := filepath.Join(dir, "."+FileName+".tmp-4242")
	os.WriteFile(stale, []byte(`{"key":"sk-half-written"}`), 0o600)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	_, rep, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatal("the stale temp file is still there")
	}
	if len(rep.Swept) != 1 || rep.Swept[0] != "."+FileName+".tmp-4242" {
		t.Fatalf("report Swept = %v", rep.Swept)
	}
}

// A settings file over 1 MiB is refused with a clear error and kept aside,
// never loaded (nor read whole).
func TestOpenRefusesAFileOverOneMiB(t *testing.T) {
	dir := t.TempDir()
	good := validFile(t, dir)
	p := filepath.Join(dir, FileName)
	// Valid JSON padded past the limit: refused for its size alone.
	big := append(bytes.TrimRight(good, "\n}"), []byte(`,"pad":"`+strings.Repeat("x", MaxFileBytes)+`"}`)...)
	os.WriteFile(p, big, 0o600)
	st, rep, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Problem == nil || !strings.Contains(rep.Problem.Error(), "at most 1048576 bytes") ||
		!strings.Contains(rep.Problem.Error(), "bytes") {
		t.Fatalf("problem = %v, want the size refusal", rep.Problem)
	}
	if b, _ := os.ReadFile(rep.KeptAs); !bytes.Equal(b, big) {
		t.Fatalf("the big file was not kept aside whole (%s)", rep.KeptAs)
	}
	if len(st.Get().Presets) != 1 {
		t.Fatalf("not started from defaults: %+v", st.Get())
	}
}

// A symlinked settings file is read and written through the link.
func TestSymlinkedSettingsAreWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(t.TempDir(), "yui-settings.json")
	os.WriteFile(real, validFile(t, t.TempDir()), 0o600)
	link := filepath.Join(dir, FileName)
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	st, rep, err := Open(dir)
	if err != nil || rep.Problem != nil || rep.Created {
		t.Fatalf("open through the link: %+v %v", rep, err)
	}
	if err := st.Update(func(s *Settings) { s.Presets[0].Name = "Through" }); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the settings link was replaced by a file")
	}
	if b, _ := os.ReadFile(real); !strings.Contains(string(b), `"Through"`) {
		t.Fatalf("the linked file was not written: %s", b)
	}
}

func TestADanglingSettingsLinkIsRefusedClearly(t *testing.T) {
	dir := t.TempDir()
	os.Symlink(filepath.Join(dir, "nowhere.json"), filepath.Join(dir, FileName))
	_, _, err := Open(dir)
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err = %v, want a refusal naming the link", err)
	}
}
