package transcript

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeLegacy writes a transcript of the Yui before the history database:
// a snapshot and its journal, as its store wrote them.
func writeLegacy(t *testing.T, dir string, snap legacyFile, journal string) string {
	t.Helper()
	path := filepath.Join(dir, "transcript-p.json")
	b, _ := json.Marshal(map[string]any{"version": 1, "next_id": snap.NextID, "journal": snap.Journal, "entries": snap.Entries})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if journal != "" {
		if err := os.WriteFile(path+".journal", []byte(journal), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// The older snapshot and its journal are imported whole — every field of
// every entry, the journal's changes over the snapshot, the next id — and
// kept as .bak; a second start imports nothing again.
func TestAnOlderTranscriptIsImportedWhole(t *testing.T) {
	dir := t.TempDir()
	snap := legacyFile{NextID: 9, Journal: 3, Entries: []Entry{
		{ID: 4, TurnID: "t1", Kind: KindUser, Text: "hello", At: 100, Sent: "hello"},
		{ID: 5, TurnID: "t1", Kind: KindReply, Text: "Hi", Reasoning: "greet", State: "streaming", At: 101},
		{ID: 6, TurnID: "trigger", Kind: KindUser, Sent: "a trigger", At: 102},
	}}
	journal := `{"gen":3}` + "\n" +
		`{"put":{"id":5,"turn_id":"t1","kind":"reply","text":"Hi there!","reasoning":"greet","state":"done","at":101,"sent":"Hi there! How are you?"}}` + "\n" +
		`{"put":{"id":7,"turn_id":"tool:look","kind":"tool","text":"Look","state":"done","at":103}}` + "\n" +
		`{"put":{"id":8,"kind":"us` // torn: never acknowledged
	path := writeLegacy(t, dir, snap, journal)

	s := open(t, dir)
	got := s.Entries()
	want := []Entry{snap.Entries[0],
		{ID: 5, TurnID: "t1", Kind: KindReply, Text: "Hi there!", Reasoning: "greet", State: "done", At: 101, Sent: "Hi there! How are you?"},
		snap.Entries[2],
		{ID: 7, TurnID: "tool:look", Kind: KindTool, Text: "Look", State: "done", At: 103}}
	if len(got) != len(want) {
		t.Fatalf("imported %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if e := s.Add(Entry{Kind: KindUser, Text: "next"}); e.ID != 9 {
		t.Fatalf("the next id is %d, want the file's next_id 9", e.ID)
	}
	for _, p := range []string{path, path + ".journal"} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("%s still there after its import: %v", p, err)
		}
		if _, err := os.Stat(p + ".bak"); err != nil {
			t.Fatalf("no backup of %s: %v", p, err)
		}
	}
	s.Close()
	// The backup put back (a user restoring it): not imported twice.
	os.Rename(path+".bak", path)
	again := open(t, dir)
	defer again.Close()
	if n := len(again.Entries()); n != 5 {
		t.Fatalf("%d entries after a second start, want 5 (nothing imported twice)", n)
	}
}

// A journal of another generation than the snapshot's is stale (the
// older Yui crashed between the two): the snapshot alone is imported.
func TestAStaleOlderJournalIsNotApplied(t *testing.T) {
	dir := t.TempDir()
	writeLegacy(t, dir, legacyFile{NextID: 3, Journal: 5, Entries: []Entry{{ID: 1, Kind: KindUser, Text: "kept"}, {ID: 2, Kind: KindUser, Text: "also kept"}}},
		`{"gen":4}`+"\n"+`{"clear":true}`+"\n")
	s := open(t, dir)
	defer s.Close()
	if got := s.Entries(); len(got) != 2 {
		t.Fatalf("entries %+v: a stale journal was applied", got)
	}
}

// A damaged transcript file is kept aside (.bad, with its journal), the
// error says where (the core shows it as a notice), and the store is
// usable and starts without it; the next start is quiet.
func TestADamagedOlderTranscriptIsKeptAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "transcript-p.json")
	os.WriteFile(path, []byte("{not json"), 0o600)
	os.WriteFile(path+".journal", []byte(`{"gen":1}`+"\n"), 0o600)
	var logs bytes.Buffer
	s, err := Open(dir, "p", slog.New(slog.NewJSONHandler(&logs, nil)), nil)
	if err == nil || !strings.Contains(err.Error(), "kept as") || !strings.Contains(err.Error(), path+".bad") {
		t.Fatalf("Open of a damaged file: err %v, want one saying where it was kept", err)
	}
	if s == nil || len(s.Entries()) != 0 {
		t.Fatal("a damaged file should give an empty, usable store")
	}
	if b, rerr := os.ReadFile(path + ".bad"); rerr != nil || string(b) != "{not json" {
		t.Fatalf("the damaged file was not kept: %q %v", b, rerr)
	}
	if _, err := os.Stat(path + ".journal.bad"); err != nil {
		t.Fatalf("its journal was not kept with it: %v", err)
	}
	if !strings.Contains(logs.String(), "history_import_damaged") {
		t.Fatalf("not logged: %s", logs.String())
	}
	s.Add(Entry{Kind: KindUser, Text: "fresh"})
	s.Close()
	again, err := Open(dir, "p", nil, nil)
	if err != nil {
		t.Fatalf("the next start: %v", err)
	}
	defer again.Close()
	if n := len(again.Entries()); n != 1 {
		t.Fatalf("%d entries after a fresh start", n)
	}
}

// A file that cannot be read now (not a parse error) is left where it is
// and imported at a later start.
func TestAnUnreadableOlderTranscriptWaits(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads any file")
	}
	dir := t.TempDir()
	path := writeLegacy(t, dir, legacyFile{NextID: 2, Entries: []Entry{{ID: 1, Kind: KindUser, Text: "wait for me"}}}, "")
	os.Chmod(path, 0)
	s, err := Open(dir, "p", nil, nil)
	if err == nil || s == nil {
		t.Fatalf("Open: %v, want an error and a usable store", err)
	}
	s.Close()
	os.Chmod(path, 0o600)
	again := open(t, dir)
	defer again.Close()
	if got := again.Entries(); len(got) != 1 || got[0].Text != "wait for me" {
		t.Fatalf("entries %+v after the file became readable", got)
	}
}
