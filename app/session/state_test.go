package session_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/app/clientctx"
	"yui/app/delegation"
	"yui/app/session"
	"yui/transport/push"
	"yui/transport/pushserver"
)

func TestUsageShownBesideContextWindow(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.turnEnd(id, &push.Usage{InputTokens: 1200, OutputTokens: 80, TotalTokens: 1280})
		u := of[session.Usage](e.ev.since(m))
		if len(u) != 1 || u[0].TotalTokens != 1280 || u[0].ContextWindow != 128000 {
			t.Fatalf("usage %+v", u)
		}
	})
}

func TestNoUsageWithoutUsage(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.turnEnd(id, nil)
		if u := of[session.Usage](e.ev.since(m)); len(u) != 0 {
			t.Fatalf("usage %+v", u)
		}
	})
}

func TestDelegationsShownAndHistoryPersisted(t *testing.T) {
	bubble(t, func(t *testing.T) {
		dir := t.TempDir()
		e := newEnv(t, envOpts{dir: dir})
		m := e.ev.mark()
		now := time.Now().UnixMilli()
		e.must(e.srv.SetDelegations(e.chat, []push.Delegation{{ID: "d-1", Title: "Sort", StartedAt: now, State: "running"}}))
		settle()
		d := of[session.Delegations](e.ev.since(m))
		if len(d) != 1 || len(d[0].Items) != 1 || d[0].Items[0].ID != "d-1" || len(d[0].History) != 1 {
			t.Fatalf("delegations %+v", d)
		}
		h, err := delegation.OpenHistory(dir, "p-test", nil)
		if err != nil || len(h.Items()) != 1 {
			t.Fatalf("history file: %v %v", h.Items(), err)
		}
	})
}

func TestDelegationHistorySurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{dir: dir})
		e.must(e.srv.SetDelegations(e.chat, []push.Delegation{{ID: "d-1", Title: "Sort", StartedAt: 1, State: "done", EndedAt: 2, Status: "ok", Summary: "Sorted."}}))
		settle()
	})
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{dir: dir})
		d := of[session.Delegations](e.ev.all())
		if len(d) == 0 || len(d[0].History) != 1 || d[0].History[0].Summary != "Sorted." {
			t.Fatalf("delegations at start %+v", d)
		}
		if h := e.s.DelegationHistory(); len(h) != 1 {
			t.Fatalf("history %+v", h)
		}
	})
}

func TestRunningDelegationLeftOutBecomesUnknown(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.must(e.srv.SetDelegations(e.chat, []push.Delegation{{ID: "d-1", Title: "Sort", StartedAt: 1, State: "running"}}))
		settle()
		m := e.ev.mark()
		e.must(e.srv.SetDelegations(e.chat, nil))
		settle()
		d := of[session.Delegations](e.ev.since(m))
		if len(d) != 1 || len(d[0].Items) != 0 || len(d[0].History) != 1 || d[0].History[0].Status != "unknown" {
			t.Fatalf("delegations %+v", d)
		}
	})
}

func TestDoneDelegationLeavesChipAfterThirtyMinutes(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		now := time.Now().UnixMilli()
		e.must(e.srv.SetDelegations(e.chat, []push.Delegation{{ID: "d-1", Title: "Sort", StartedAt: now, State: "done", EndedAt: now, Status: "ok"}}))
		settle()
		m := e.ev.mark()
		sleep(delegation.DoneVisibleFor - time.Millisecond)
		if d := of[session.Delegations](e.ev.since(m)); len(d) != 0 {
			t.Fatalf("early %+v", d)
		}
		sleep(time.Millisecond)
		d := of[session.Delegations](e.ev.since(m))
		if len(d) != 1 || len(d[0].Items) != 0 || len(d[0].History) != 1 {
			t.Fatalf("expiry %+v", d)
		}
	})
}

func TestResetSendsResetKeepsHistoryAndClearsRecord(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.must(e.srv.SetDelegations(e.chat, []push.Delegation{{ID: "d-1", Title: "Sort", StartedAt: 1, State: "running"}}))
		id := e.send("hi")
		e.reasoning(id, "hmm")
		e.errorFrame(id, "boom")
		e.turnEnd(id, nil)
		a := e.send("again")
		m := e.ev.mark()
		e.s.Reset()
		settle()
		if e.reset != 1 {
			t.Fatal("no reset frame")
		}
		if s := e.Stops(); len(s) != 1 || s[0][0] != a {
			t.Fatalf("reset did not stop: %v", s)
		}
		if rec := previous(t, e); rec.Outcome != "" {
			t.Fatalf("record kept %+v", rec)
		}
		evs := e.ev.since(m)
		d := of[session.Delegations](evs)
		if len(d) != 1 || len(d[0].Items) != 0 || len(d[0].History) != 1 {
			t.Fatalf("delegations after reset %+v", d)
		}
		eq(t, "reasoning", reasonings(evs), []string{":"})
	})
}

func TestResetWhileDisconnectedShowsErrorLine(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{noStart: true})
		m := e.ev.mark()
		e.s.Reset()
		settle()
		l := of[session.ErrorLine](e.ev.since(m))
		if len(l) != 1 || l[0].Where != session.WhereComposer {
			t.Fatalf("error line %+v", l)
		}
	})
}

func TestCompletedTurnClearsRecord(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("one")
		e.errorFrame(id, "boom")
		e.turnEnd(id, nil)
		b := e.send("two")
		e.render(b, seg("Fine."))
		e.turnEnd(b, nil)
		e.drain()
		if rec := previous(t, e); rec.Outcome != "" {
			t.Fatalf("record %+v", rec)
		}
	})
}

func TestSilentCompletedTurnClearsRecord(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("one")
		e.errorFrame(id, "boom")
		e.turnEnd(id, nil)
		b := e.send("two")
		e.turnEnd(b, nil)
		if rec := previous(t, e); rec.Outcome != "" {
			t.Fatalf("record %+v", rec)
		}
	})
}

func TestBackendTurnPlayingToEndKeepsRecord(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("one")
		e.errorFrame(id, "boom")
		e.turnEnd(id, nil)
		e.render("hermes-1", seg("News."))
		e.turnEnd("hermes-1", nil)
		e.drain()
		if rec := previous(t, e); rec.Outcome != clientctx.Failed {
			t.Fatalf("record %+v", rec)
		}
	})
}

func TestRecordPersistsAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{dir: dir})
		id := e.send("one")
		sleep(push.TurnFrameWait)
		_ = id
	})
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{dir: dir})
		if p := e.Plays(); len(p) != 0 {
			t.Fatalf("record replayed on start: %+v", p)
		}
		e.send("two")
		if tu := e.Turns(); !containsLine(tu[0].ClientContext, "previous: user.text_submitted failed") {
			t.Fatalf("block:\n%s", tu[0].ClientContext)
		}
	})
}

func TestWaitPassedWhileConnectedSendsPlayback(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("one")
		sleep(push.TurnFrameWait)
		if p := e.Plays(); len(p) != 1 || p[0].TurnID != id {
			t.Fatalf("playback %+v", p)
		}
	})
}

func TestSpokenTriggerLabel(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.s.SendSpoken("hello")
		settle()
		sleep(push.TurnFrameWait)
		if rec := previous(t, e); rec.Trigger != session.LabelSpoken {
			t.Fatalf("record %+v", rec)
		}
	})
}

// pngBytes is a 1×1 PNG.
func pngBytes() []byte {
	b, _ := base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
	return b
}

func writeImage(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "a.png")
	if err := os.WriteFile(p, pngBytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAttachSendsDataURLWhenBackendAcceptsImages(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{server: pushserver.Config{MaxTurnBytes: 1 << 20}})
		e.must(e.s.Attach(writeImage(t)))
		e.send("what is this?")
		e.send("and now?")
		tu := e.Turns()
		if len(tu[0].Images) != 1 || !strings.HasPrefix(tu[0].Images[0], "data:image/png;base64,") || len(tu[1].Images) != 0 {
			t.Fatalf("images %v / %v", len(tu[0].Images), len(tu[1].Images))
		}
	})
}

func TestAttachRefusedWithoutMaxTurnBytes(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.must(e.s.Attach(writeImage(t)))
		m := e.ev.mark()
		e.send("what is this?")
		evs := e.ev.since(m)
		l := of[session.ErrorLine](evs)
		if len(l) != 1 || l[0].Text != session.EnglishLines().ImagesRefused || len(e.Turns()) != 0 {
			t.Fatalf("events %+v", evs)
		}
	})
}

func TestAttachTooLargeRefused(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{server: pushserver.Config{MaxTurnBytes: 300}})
		e.must(e.s.Attach(writeImage(t)))
		e.must(e.s.Attach(writeImage(t)))
		m := e.ev.mark()
		e.send("what is this?")
		l := of[session.ErrorLine](e.ev.since(m))
		if len(l) != 1 || l[0].Text != session.EnglishLines().ImagesTooLarge || len(e.Turns()) != 0 {
			t.Fatalf("error lines %+v", l)
		}
	})
}

func TestAttachRejectsNonImage(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		p := filepath.Join(t.TempDir(), "a.txt")
		e.must(os.WriteFile(p, []byte("hello"), 0o600))
		if err := e.s.Attach(p); err == nil {
			t.Fatal("a text file was attached")
		}
		if err := e.s.Attach(filepath.Join(t.TempDir(), "missing.png")); err == nil {
			t.Fatal("a missing file was attached")
		}
	})
}

func TestTooLongTurnRefused(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.send(strings.Repeat("a", push.MaxFrameBytes))
		l := of[session.ErrorLine](e.ev.since(m))
		if len(l) != 1 || l[0].Text != session.EnglishLines().TooLong || len(e.Turns()) != 0 {
			t.Fatalf("error lines %+v", l)
		}
	})
}

func TestBlockCarriesTheFrontmostWindow(t *testing.T) {
	bubble(t, func(t *testing.T) {
		since := time.Now()
		var front *clientctx.Frontmost
		e := newEnv(t, envOpts{frontmost: func() *clientctx.Frontmost { return front }})
		e.send("no window known")
		front = &clientctx.Frontmost{App: "Firefox", Title: "Release notes", Since: since}
		time.Sleep(12 * time.Minute)
		e.send("now with one")
		tu := e.Turns()
		if len(tu) != 2 || strings.Contains(tu[0].ClientContext, "frontmost:") {
			t.Fatalf("first block:\n%s", tu[0].ClientContext)
		}
		if !containsLine(tu[1].ClientContext, `frontmost: Firefox — "Release notes" (for 12min)`) {
			t.Fatalf("second block:\n%s", tu[1].ClientContext)
		}
	})
}
