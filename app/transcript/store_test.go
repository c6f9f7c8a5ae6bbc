package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"yui/transport"
)

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir, "p", nil, func() time.Time { return time.UnixMilli(1_789_000_000_000) })
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func TestStoreSurvivesARestart(t *testing.T) {
	path := t.TempDir()
	s := open(t, path)
	u := s.Add(Entry{TurnID: "t1", Kind: KindUser, Text: "hello"})
	r := s.Add(Entry{TurnID: "t1", Kind: KindReply, State: "streaming"})
	s.Update("t1", KindReply, false, func(e *Entry) { e.Reasoning = "thinking about hello" })
	s.Update("t1", KindReply, true, func(e *Entry) { e.Text = "Hi!"; e.State = "done" })
	s.Add(Entry{TurnID: "t1", Kind: KindTool, Text: "Looking at the screen", State: "done"})
	s.RecordExchange("t1", "hello", "Hi! How are you?")
	if u.ID == 0 || r.ID <= u.ID {
		t.Fatalf("ids %d, %d: want growing from 1", u.ID, r.ID)
	}

	again := open(t, path)
	got := again.Entries()
	if len(got) != 3 {
		t.Fatalf("after restart %d entries, want 3: %+v", len(got), got)
	}
	if got[1].Text != "Hi!" || got[1].Reasoning != "thinking about hello" || got[1].State != "done" || got[1].Sent != "Hi! How are you?" {
		t.Fatalf("reply after restart = %+v", got[1])
	}
	want := []transport.HistoryMessage{{Role: "user", Content: "hello"}, {Role: "assistant", Content: "Hi! How are you?"}}
	if !slices.Equal(again.Exchanges(), want) {
		t.Fatalf("Exchanges = %+v, want %+v", again.Exchanges(), want)
	}
	// New ids go on after the restart.
	if e := again.Add(Entry{Kind: KindError, Text: "x"}); e.ID <= got[2].ID {
		t.Fatalf("id after restart %d, want > %d", e.ID, got[2].ID)
	}
	for _, f := range []string{"history-p.db", "history-p.db-wal", "history-p.db-shm"} {
		if fi, err := os.Stat(filepath.Join(path, f)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s mode: %v %v", f, fi, err)
		}
	}
}

func TestStoreClearEmptiesWhatIsShownAndSent(t *testing.T) {
	path := t.TempDir()
	s := open(t, path)
	s.Add(Entry{TurnID: "t1", Kind: KindUser, Text: "one"})
	s.RecordExchange("t1", "one", "uno")
	last := s.Add(Entry{Kind: KindError, Text: "oops"})
	s.Clear()
	if n := len(s.Entries()); n != 0 {
		t.Fatalf("%d entries after Clear", n)
	}
	if x := s.Exchanges(); len(x) != 0 {
		t.Fatalf("Exchanges after Clear = %+v", x)
	}
	again := open(t, path)
	if n := len(again.Entries()); n != 0 {
		t.Fatalf("%d entries after Clear and restart", n)
	}
	// Ids are not reused after a reset (a page updates rows by id).
	if e := again.Add(Entry{Kind: KindUser, Text: "two"}); e.ID <= last.ID {
		t.Fatalf("id after reset %d, want > %d", e.ID, last.ID)
	}
}

func TestStoreBounds(t *testing.T) {
	path := t.TempDir()
	s := open(t, path)
	for i := range MaxEntries + 25 {
		s.Add(Entry{TurnID: "t", Kind: KindUser, Text: strings.Repeat("x", i%3)})
	}
	got := s.Entries()
	if len(got) != MaxEntries {
		t.Fatalf("%d entries, want the newest %d", len(got), MaxEntries)
	}
	if got[0].ID != 26 {
		t.Fatalf("oldest kept id %d, want 26 (the 25 oldest left)", got[0].ID)
	}
	big := strings.Repeat("é", MaxTextBytes) // 2 bytes a rune: over the bound
	e := s.Add(Entry{Kind: KindReply, Text: big, Reasoning: big, Sent: big})
	if len(e.Text) > MaxTextBytes || len(e.Sent) > MaxTextBytes || len(e.Reasoning) > MaxReasoningBytes {
		t.Fatalf("entry not bounded: %d %d %d", len(e.Text), len(e.Sent), len(e.Reasoning))
	}
	if !strings.HasPrefix(big, e.Text) || len(e.Text)%2 != 0 {
		t.Fatal("a cut text is not the start of the text on a rune boundary")
	}
	if n := len(open(t, path).Entries()); n != MaxEntries {
		t.Fatalf("%d entries read back, want %d", n, MaxEntries)
	}
}

func TestRecordExchangeWithoutShownEntries(t *testing.T) {
	s := open(t, "")
	// A trigger turn: nobody typed it, no sentence shown yet.
	s.RecordExchange("t9", "trigger: something", "Okay.")
	got := s.Entries()
	if len(got) != 2 || got[0].Kind != KindUser || got[0].Text != "" || got[1].Kind != KindReply || got[1].Sent != "Okay." || got[1].State != "streaming" {
		t.Fatalf("entries = %+v", got)
	}
	// The turn is over: the reply is done, once.
	if done := s.FinishReplies(); len(done) != 1 || done[0].State != "done" || done[0].ID != got[1].ID {
		t.Fatalf("FinishReplies = %+v", done)
	}
	if again := s.FinishReplies(); len(again) != 0 {
		t.Fatalf("FinishReplies again = %+v", again)
	}
}
