package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// Every row reaches the OS before the call that made it returns: a store
// opened again without Close (the process was killed) has every row, with
// its last change.
func TestAKilledProcessLosesNoRow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "transcript-p.json")
	s := open(t, path)
	for i := range 300 {
		key := fmt.Sprintf("delegation:d-%d", i)
		s.Add(Entry{TurnID: key, Kind: KindDelegation, Text: "task", State: "running"})
		if i%2 == 0 {
			s.Update(key, KindDelegation, true, func(e *Entry) { e.State, e.Text = "done", "task — finished" })
		}
	}
	s.Add(Entry{TurnID: "t1", Kind: KindUser, Text: "are you there?"})
	got := open(t, path).Entries() // no Close: as after a kill
	if len(got) != 301 {
		t.Fatalf("%d rows after a kill, want 301", len(got))
	}
	for i, e := range got[:300] {
		if want := map[bool]string{true: "done", false: "running"}[i%2 == 0]; e.State != want {
			t.Fatalf("row %d state %q, want %q", i, e.State, want)
		}
	}
	if got[300].Text != "are you there?" {
		t.Fatalf("last row %+v", got[300])
	}
}

// A crash in the middle of writing a line leaves a torn line at the end of
// the journal: it is dropped (it was never acknowledged), the rows before
// it are kept, and the store goes on.
func TestATornJournalLineIsDropped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "transcript-p.json")
	s := open(t, path)
	s.Add(Entry{TurnID: "t1", Kind: KindUser, Text: "one"})
	s.Add(Entry{TurnID: "t1", Kind: KindReply, Text: "uno", State: "done"})
	f, err := os.OpenFile(journalPath(path), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"put":{"id":99,"kind":"user","te`)
	f.Close()
	var logs bytes.Buffer
	again, err := Open(path, slog.New(slog.NewJSONHandler(&logs, nil)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Entries(); len(got) != 2 || got[1].Text != "uno" {
		t.Fatalf("entries %+v, want the two whole rows", got)
	}
	if !strings.Contains(logs.String(), "transcript_journal_torn") {
		t.Fatalf("no transcript_journal_torn line: %s", logs.String())
	}
	again.Add(Entry{Kind: KindUser, Text: "three"})
	if n := len(open(t, path).Entries()); n != 3 {
		t.Fatalf("%d rows after the torn line and a new one, want 3", n)
	}
}

// A crash between writing a snapshot and starting its journal leaves the
// previous journal: stale, so it is not applied again over the snapshot
// that already holds it.
func TestAStaleJournalIsIgnored(t *testing.T) {
	path := filepath.Join(t.TempDir(), "transcript-p.json")
	snap, _ := json.Marshal(file{Version: 1, NextID: 3, Journal: 5, Entries: []Entry{{ID: 1, Kind: KindUser, Text: "kept"}, {ID: 2, Kind: KindUser, Text: "also kept"}}})
	os.WriteFile(path, snap, 0o600)
	os.WriteFile(journalPath(path), []byte(`{"gen":4}`+"\n"+`{"clear":true}`+"\n"), 0o600)
	s := open(t, path)
	if got := s.Entries(); len(got) != 2 {
		t.Fatalf("entries %+v: a stale journal was applied", got)
	}
}

// A line the user typed is on the disk before Add returns; other rows are
// synced SyncDelay after the first unsynced one, many changes in one
// fsync, and Close syncs what is left.
func TestRowsAreSyncedTogetherAndTheUsersLineAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "transcript-p.json")
		s := open(t, path)
		waiting := func() (unsynced, timer bool) {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.j.unsynced, s.j.timer != nil
		}
		s.Add(Entry{TurnID: "t1", Kind: KindUser, Text: "hello"})
		if u, _ := waiting(); u {
			t.Fatal("the user's line waits for its fsync")
		}
		for i := range 50 {
			s.Add(Entry{TurnID: fmt.Sprintf("delegation:%d", i), Kind: KindDelegation, Text: "task", State: "running"})
		}
		if u, tm := waiting(); !u || !tm {
			t.Fatal("the rows were synced one by one, want one fsync after SyncDelay")
		}
		time.Sleep(SyncDelay)
		synctest.Wait()
		if u, _ := waiting(); u {
			t.Fatal("rows still unsynced after SyncDelay")
		}
		s.Add(Entry{TurnID: "tool:x", Kind: KindTool, Text: "x", State: "running"})
		s.Close()
		if u, tm := waiting(); u || tm {
			t.Fatal("Close left rows unsynced")
		}
	})
}
