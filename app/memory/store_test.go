package memory_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yui/app/memory"
)

func TestFactsBounded(t *testing.T) {
	dir := t.TempDir()
	path := memory.Path(dir, "p-0000000a")
	var seen []memory.State
	s, err := memory.Open(path, nil, func(st memory.State) { seen = append(seen, st) })
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Remember(strings.Repeat("x", memory.MaxFactBytes+1)); !errors.Is(err, memory.ErrFactTooLong) {
		t.Fatalf("long fact: %v", err)
	}
	if err := s.Remember("  \n "); !errors.Is(err, memory.ErrEmptyFact) {
		t.Fatalf("empty fact: %v", err)
	}
	for i := range memory.MaxFacts {
		if err := s.Remember(fmt.Sprintf("fact\n%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Remember("FACT 3"); err != nil { // kept already, case aside
		t.Fatalf("duplicate: %v", err)
	}
	if err := s.Remember("one more"); !errors.Is(err, memory.ErrTooManyFacts) {
		t.Fatalf("full: %v", err)
	}
	if err := s.Forget("fact 1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Forget("fact"); !errors.Is(err, memory.ErrNoSuchFact) {
		t.Fatalf("ambiguous forget: %v", err)
	}
	if len(seen) != memory.MaxFacts+1 {
		t.Fatalf("%d changes heard", len(seen))
	}
	if err := s.Set(strings.Repeat("s", memory.MaxSummaryBytes+1), nil); !errors.Is(err, memory.ErrSummaryLong) {
		t.Fatalf("long summary: %v", err)
	}
	// Saved, and read back as saved.
	again, err := memory.Open(path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.State().Facts; len(got) != memory.MaxFacts-1 || got[0] != "fact 0" {
		t.Fatalf("reread facts %q", got)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v %v", fi, err)
	}
}

func TestCorruptFileKeptAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "memory-p.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := memory.Open(path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st := s.State(); st.Summary != "" || len(st.Facts) != 0 {
		t.Fatalf("state %+v", st)
	}
	entries, _ := os.ReadDir(dir)
	aside := 0
	for _, e := range entries {
		if e.Name() != "memory-p.json" {
			aside++
		}
	}
	if aside != 1 {
		t.Fatalf("corrupt file not kept aside: %v", entries)
	}
}

func TestSummarisedLosesToEdit(t *testing.T) {
	s, _ := memory.Open(filepath.Join(t.TempDir(), "m.json"), nil, nil)
	s.Summarised("", "model one", "m1")
	if sum, cov := s.Summary(); sum != "model one" || cov != "m1" {
		t.Fatalf("%q %q", sum, cov)
	}
	if err := s.Set("user's", nil); err != nil {
		t.Fatal(err)
	}
	s.Summarised("model one", "model two", "m2") // built from the old text
	if sum, cov := s.Summary(); sum != "user's" || cov != "m1" {
		t.Fatalf("the edit lost: %q %q", sum, cov)
	}
	s.Summarised("user's", strings.Repeat("word ", memory.MaxSummaryBytes), "m3")
	if sum, _ := s.Summary(); len(sum) > memory.MaxSummaryBytes {
		t.Fatalf("summary of %d bytes kept", len(sum))
	}
}
