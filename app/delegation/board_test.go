package delegation

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestBoardMergesHistoryBeforeReplacingLive(t *testing.T) {
	dir := t.TempDir()
	c := &clock{t0}
	b := NewBoard(open(t, dir), c.now)
	b.Apply([]Item{{ID: "a", State: Running, StartedAt: 1}})
	c.t = t0.Add(time.Minute)
	b.Apply([]Item{{ID: "b", State: Running, StartedAt: 2}})
	if live := b.Live(); len(live) != 1 || live[0].ID != "b" {
		t.Fatalf("live %+v", live)
	}
	a := byID(b.History())["a"]
	if a.State != Done || a.Status != StatusUnknown || a.EndedAt != c.t.UnixMilli() {
		t.Fatalf("history item a %+v", a)
	}
}

func TestBoardResetKeepsHistory(t *testing.T) {
	c := &clock{t0}
	b := NewBoard(open(t, t.TempDir()), c.now)
	b.Apply([]Item{{ID: "a", State: Running}})
	b.Reset()
	if len(b.Live()) != 0 || len(b.Visible()) != 0 {
		t.Fatal("reset left live items")
	}
	if len(b.History()) != 1 {
		t.Fatal("reset touched the history")
	}
}

func TestBoardResetThenEmptyFrameEndsRunningAsUnknown(t *testing.T) {
	c := &clock{t0}
	b := NewBoard(open(t, t.TempDir()), c.now)
	b.Apply([]Item{{ID: "a", State: Running}})
	b.Reset()
	b.Apply(nil) // the backend's next list after reset lists nothing
	if a := b.History()[0]; a.Status != StatusUnknown {
		t.Fatalf("history %+v", a)
	}
}

func TestBoardVisibleAndExpiryUseClock(t *testing.T) {
	c := &clock{t0}
	b := NewBoard(open(t, t.TempDir()), c.now)
	b.Apply([]Item{{ID: "a", State: Done, EndedAt: t0.UnixMilli(), Status: StatusOK}})
	if len(b.Visible()) != 1 {
		t.Fatal("fresh done item hidden")
	}
	next, ok := b.NextExpiry()
	if !ok || !next.Equal(t0.Add(DoneVisibleFor)) {
		t.Fatalf("expiry %v %v", next, ok)
	}
	c.t = next
	if len(b.Visible()) != 0 {
		t.Fatal("done item visible at its expiry")
	}
	if _, ok := b.NextExpiry(); ok {
		t.Fatal("expiry after last item left")
	}
}

func TestBoardHistorySurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	c := &clock{t0}
	b := NewBoard(open(t, dir), c.now)
	b.Apply([]Item{{ID: "a", Title: "Check logs", State: Done, StartedAt: 1, EndedAt: 2, Status: StatusOK, Summary: "ok"}})
	b2 := NewBoard(open(t, dir), c.now)
	if len(b2.Live()) != 0 {
		t.Fatal("live list persisted; it should start empty")
	}
	if h := b2.History(); len(h) != 1 || h[0].Summary != "ok" {
		t.Fatalf("history after restart %+v", h)
	}
}

func TestBoardApplyReturnsSaveErrorButUpdatesLive(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "history-yui.db"), 0o700) // the database cannot open
	h, _ := OpenHistory(dir, "yui", quiet())
	b := NewBoard(h, (&clock{t0}).now)
	if err := b.Apply([]Item{{ID: "a", State: Running}}); err == nil {
		t.Fatal("save error swallowed")
	}
	if len(b.Live()) != 1 || len(b.History()) != 1 {
		t.Fatal("state not updated on save failure")
	}
}
