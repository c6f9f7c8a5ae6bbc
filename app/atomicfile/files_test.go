package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The data sits in a 0600 temporary file whatever the final mode: a key
// is never readable by other users, not even for the moment of a write.
func TestTempFileIs0600WhileTheDataIsWritten(t *testing.T) {
	dir := t.TempDir()
	var seen []os.FileMode
	testHookWritten = func(tmp string) {
		fi, err := os.Stat(tmp)
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, fi.Mode().Perm())
	}
	t.Cleanup(func() { testHookWritten = nil })
	if err := Write(filepath.Join(dir, "f.json"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != 0o600 {
		t.Fatalf("temp file modes %v, want [0600]", seen)
	}
	fi, _ := os.Stat(filepath.Join(dir, "f.json"))
	if fi.Mode().Perm() != 0o644 {
		t.Fatalf("final mode %v, want the 0644 asked for", fi.Mode().Perm())
	}
}

func TestKeptAsideFileIs0600(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	os.WriteFile(p, []byte("{bad"), 0o644)
	os.Chmod(p, 0o644)
	bad, err := KeepAside(p)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(bad)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s has mode %v, want 0600", bad, fi.Mode().Perm())
	}
}

// A symlinked file is written through: the file it points to gets the new
// content and the link stays a link.
func TestWriteGoesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "yui.json")
	os.MkdirAll(filepath.Dir(real), 0o700)
	os.WriteFile(real, []byte("old"), 0o600)
	link := filepath.Join(dir, "config", "settings.json")
	os.MkdirAll(filepath.Dir(link), 0o700)
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Fatalf("the linked file holds %q, want new", b)
	}
	if ents, _ := os.ReadDir(filepath.Dir(link)); len(ents) != 1 {
		t.Fatalf("the link's directory holds %d entries, want the link alone", len(ents))
	}
}

func TestWriteRefusesALinkToNothing(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "settings.json")
	os.Symlink(filepath.Join(dir, "gone.json"), link)
	err := Write(link, []byte("new"), 0o600)
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err = %v, want a clear refusal naming the link", err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the dangling link was replaced")
	}
}

// Temporary files a crash left are removed; a fresh one (a write still in
// progress in another process) and other files stay.
func TestSweepRemovesStaleTempFilesOnly(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	mk := func(name string, age time.Duration) {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("k"), 0o600)
		os.Chtimes(p, now.Add(-age), now.Add(-age))
	}
	mk(".settings.json.tmp-123", time.Hour)
	mk(".previous-turn-p.json.tmp-9", 2*StaleAfter)
	mk(".settings.json.tmp-456", time.Second)
	mk("settings.json", time.Hour)
	mk("notes.tmp-1", time.Hour)
	removed, err := Sweep(dir, now)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(removed, ",") != ".previous-turn-p.json.tmp-9,.settings.json.tmp-123" {
		t.Fatalf("removed %v", removed)
	}
	left, _ := os.ReadDir(dir)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != ".settings.json.tmp-456,notes.tmp-1,settings.json" {
		t.Fatalf("left %v", names)
	}
	if r, err := Sweep(filepath.Join(dir, "missing"), now); err != nil || r != nil {
		t.Fatalf("sweep of a missing dir: %v %v", r, err)
	}
}
