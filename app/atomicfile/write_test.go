package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteCreatesFileWithMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "settings.json")
	if err := Write(p, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != `{"a":1}` {
		t.Fatalf("read back %q, %v", b, err)
	}
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", st.Mode().Perm())
	}
}

func TestWriteReplacesAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	for _, s := range []string{"one", "two-longer", "3"} {
		if err := Write(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(p)
	if string(b) != "3" {
		t.Fatalf("got %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("dir holds %d entries, want only the target", len(ents))
	}
}

func TestWriteFailureKeepsOldContent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	if err := Write(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A directory where the target should be makes the rename fail.
	bad := filepath.Join(dir, "isdir")
	os.Mkdir(bad, 0o700)
	os.WriteFile(filepath.Join(bad, "x"), []byte("x"), 0o600)
	if err := Write(bad, []byte("new"), 0o600); err == nil {
		t.Fatal("want error writing over a non-empty directory")
	}
	b, _ := os.ReadFile(p)
	if string(b) != "old" {
		t.Fatalf("old content lost: %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Fatalf("temp file left behind: %d entries", len(ents))
	}
}

func TestKeepAsideNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "h.json")
	var kept []string
	for _, s := range []string{"one", "two", "three"} {
		os.WriteFile(p, []byte(s), 0o600)
		k, err := KeepAside(p)
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, k)
	}
	want := []string{p + ".bad", p + ".bad.1", p + ".bad.2"}
	for i, s := range []string{"one", "two", "three"} {
		if kept[i] != want[i] {
			t.Fatalf("kept as %v, want %v", kept, want)
		}
		if b, _ := os.ReadFile(kept[i]); string(b) != s {
			t.Fatalf("%s holds %q", kept[i], b)
		}
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatal("the bad file is still in place")
	}
	if _, err := KeepAside(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("kept aside a missing file")
	}
}

func TestSafeNameIsOnePlainName(t *testing.T) {
	for in, want := range map[string]string{"p-1a2b3c4d": "p-1a2b3c4d", "../x": "%2E%2E%2Fx", "a b": "a%20b"} {
		if got := SafeName(in); got != want {
			t.Fatalf("SafeName(%q) = %q, want %q", in, got, want)
		}
	}
}
