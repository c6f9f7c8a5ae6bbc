package session_test

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"yui/app/clientctx"
	"yui/app/session"
	"yui/transport/push"
	"yui/transport/pushserver"
)

func TestErrorFrameFailsTypedTurnOnTurnEnd(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.errorFrame(id, "Provider returned 429: rate limit reached")
		if evs := e.ev.since(m); len(of[session.FailureLine](evs))+len(of[session.ErrorLine](evs)) != 0 {
			t.Fatalf("failure shown before turn_end: %v", kinds(evs))
		}
		e.turnEnd(id, nil)
		evs := e.ev.since(m)
		f, l := of[session.FailureLine](evs), of[session.ErrorLine](evs)
		if len(f) != 1 || f[0].Text != session.EnglishLines().Failed {
			t.Fatalf("failure %+v", f)
		}
		if len(l) != 1 || l[0].Text != "Provider returned 429: rate limit reached" || l[0].Where != session.WhereComposer || l[0].TurnID != id {
			t.Fatalf("error line %+v", l)
		}
	})
}

func TestErrorFrameOfSpokenTurnShowsInPill(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.s.SendSpoken("hi")
		settle()
		m := e.ev.mark()
		e.errorFrame(id, "boom")
		e.turnEnd(id, nil)
		l := of[session.ErrorLine](e.ev.since(m))
		if len(l) != 1 || l[0].Where != session.WherePill {
			t.Fatalf("error line %+v", l)
		}
	})
}

func TestErrorMessageIsOneLineCutAt200(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.errorFrame(id, "line one\nline two\t"+strings.Repeat("x", 300))
		e.turnEnd(id, nil)
		l := of[session.ErrorLine](e.ev.since(m))
		if len(l) != 1 || strings.ContainsAny(l[0].Text, "\n\t") || utf8.RuneCountInString(l[0].Text) != session.ErrorLineMax || !strings.HasPrefix(l[0].Text, "line one line two x") {
			t.Fatalf("error line %q (%d)", l[0].Text, utf8.RuneCountInString(l[0].Text))
		}
	})
}

func TestOneLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"  a \n b  ", "a b"},
		{"é" + strings.Repeat("y", 10), "é" + strings.Repeat("y", 3) + "…"},
	} {
		if got := session.OneLine(c.in, 5); got != c.want && utf8.RuneCountInString(c.in) > 5 {
			t.Errorf("OneLine(%q) = %q, want %q", c.in, got, c.want)
		} else if utf8.RuneCountInString(c.in) <= 5 && got != c.want {
			t.Errorf("OneLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestErrorFrameForBackendTurnShowsNothing(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.errorFrame("hermes-1", "worker died")
		e.turnEnd("hermes-1", nil)
		evs := e.ev.since(m)
		if len(of[session.ErrorLine](evs))+len(of[session.FailureLine](evs)) != 0 {
			t.Fatalf("backend turn error shown: %v", kinds(evs))
		}
		if r := e.log.All("push.error"); len(r) != 1 || r[0].Attrs["message"] != "worker died" {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestErrorFrameForClosedClientTurnShowsNothing(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.turnEnd(id, nil)
		m := e.ev.mark()
		e.errorFrame(id, "late")
		if evs := e.ev.since(m); len(evs) != 0 {
			t.Fatalf("events %v", kinds(evs))
		}
	})
}

func TestErrorFrameLogLine(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.errorFrame(id, "boom")
		r := e.log.All("push.error")
		if len(r) != 1 || r[0].Attrs["turn_id"] != id || r[0].Attrs["message"] != "boom" || r[0].Attrs["dropped"] != nil {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestErrorThenTurnEndWritesNoNetworkDrop(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.errorFrame(id, "boom")
		e.turnEnd(id, nil)
		sleep(2 * push.TurnFrameWait)
		if n := len(e.log.All("network_drop")) + len(e.log.All("network_stall")); n != 0 {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestErrorFrameRecordsFailedAndSendsPlayback(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.errorFrame(id, "boom")
		e.turnEnd(id, nil)
		rec := previous(t, e)
		if rec.Outcome != clientctx.Failed || rec.TurnID != id || rec.Trigger != session.LabelTyped {
			t.Fatalf("record %+v", rec)
		}
		p := e.Plays()
		if len(p) != 1 || p[0].TurnID != id || p[0].Ended != "failed" {
			t.Fatalf("playback frames %+v", p)
		}
	})
}

func TestErrorFrameKeepsFrameWaitAlive(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		sleep(push.TurnFrameWait / 2)
		e.errorFrame(id, "boom")
		m := e.ev.mark()
		sleep(push.TurnFrameWait/2 + 1)
		if f := of[session.FailureLine](e.ev.since(m)); len(f) != 0 {
			t.Fatalf("wait passed although the error frame re-armed it: %+v", f)
		}
	})
}

func TestFailureLineNotSpokenTwice(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		sleep(push.TurnFrameWait)
		e.errorFrame(id, "boom")
		e.turnEnd(id, nil)
		if f := of[session.FailureLine](e.ev.since(m)); len(f) != 1 {
			t.Fatalf("failure lines %+v", f)
		}
	})
}

func TestBackendWithoutErrorAcceptsRendersFailureLine(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{server: pushserver.Config{FailureLine: func(string) string { return "Oops, that broke." }}})
		id := e.send("hi")
		m := e.ev.mark()
		e.errorFrame(id, "boom") // the client accepts error: the frame arrives as is
		e.turnEnd(id, nil)
		if l := of[session.ErrorLine](e.ev.since(m)); len(l) != 1 {
			t.Fatalf("error line %+v", l)
		}
		hello, _ := e.srv.Hello(e.chat)
		if len(hello.Accepts) != 1 || hello.Accepts[0] != "error" {
			t.Fatalf("hello accepts %v", hello.Accepts)
		}
	})
}

func TestErrorFrameWithoutMessageShowsGenericText(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.errorFrame(id, "")
		e.turnEnd(id, nil)
		l := of[session.ErrorLine](e.ev.since(m))
		if len(l) != 1 || l[0].Text != session.EnglishLines().ErrorGeneric || l[0].Text == "" {
			t.Fatalf("error line %+v, want the generic text", l)
		}
	})
}

func TestFailedTurnSendsOnePlaybackFrame(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		time.Sleep(push.TurnFrameWait + time.Second) // the frame wait passes: failed record, playback frame
		synctest.Wait()
		if p := e.Plays(); len(p) != 1 {
			t.Fatalf("after the wait: playback frames %+v", p)
		}
		e.errorFrame(id, "late failure") // the backend's error and turn_end still come
		e.turnEnd(id, nil)
		if p := e.Plays(); len(p) != 1 || p[0].TurnID != id {
			t.Fatalf("playback frames %+v, want one for the one failed record", p)
		}
	})
}
