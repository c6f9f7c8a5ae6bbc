package session_test

import (
	"testing"
	"time"

	"github.com/coder/websocket"

	"yui/app/clientctx"
	"yui/app/session"
	"yui/transport/push"
)

func TestFrameWaitBeforeRenderSpeaksFailureLine(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		sleep(push.TurnFrameWait - time.Millisecond)
		if f := of[session.FailureLine](e.ev.since(m)); len(f) != 0 {
			t.Fatalf("failure before the wait: %+v", f)
		}
		sleep(time.Millisecond)
		evs := e.ev.since(m)
		f := of[session.FailureLine](evs)
		if len(f) != 1 || f[0].TurnID != id || f[0].Text != session.EnglishLines().GaveUp {
			t.Fatalf("failure %+v", f)
		}
		if c := of[session.Composer](evs); len(c) != 1 || c[0].Locked {
			t.Fatalf("composer not released: %v", kinds(evs))
		}
		if n := len(e.log.All("network_stall")); n != 1 {
			t.Fatalf("network_stall lines %d:\n%s", n, e.log.Dump())
		}
	})
}

func TestFrameWaitRearmedByEveryFrameOfTheTurn(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		sleep(push.TurnFrameWait - time.Second)
		e.toolStatus(id, "running", "read_file")
		sleep(push.TurnFrameWait - time.Second)
		e.reasoning(id, "thinking...")
		sleep(push.TurnFrameWait - time.Second)
		if f := of[session.FailureLine](e.ev.since(m)); len(f) != 0 {
			t.Fatalf("wait passed despite frames: %+v", f)
		}
		sleep(time.Second)
		if f := of[session.FailureLine](e.ev.since(m)); len(f) != 1 {
			t.Fatalf("failure lines %+v", f)
		}
	})
}

func TestFrameWaitAfterRenderOnlyLogs(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.render(id, seg("Part one."))
		m := e.ev.mark()
		sleep(push.TurnFrameWait)
		evs := e.ev.since(m)
		if f := of[session.FailureLine](evs); len(f) != 0 {
			t.Fatalf("failure line after the first render: %+v", f)
		}
		if c := of[session.Composer](evs); len(c) != 1 || c[0].Locked {
			t.Fatalf("turn not ended: %v", kinds(evs))
		}
		st := e.log.All("network_stall")
		if len(st) != 1 || st[0].Attrs["stage"] != "push_turn_end" {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestLateRenderAfterWaitStillPlays(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		sleep(push.TurnFrameWait)
		m := e.ev.mark()
		e.render(id, seg("Sorry, I was slow."))
		e.drain()
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"Sorry, I was slow."})
	})
}

func TestTurnWhoseWaitEndedStaysOutstanding(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		sleep(push.TurnFrameWait)
		e.s.Stop()
		settle()
		if s := e.Stops(); len(s) != 1 || len(s[0]) != 1 || s[0][0] != id {
			t.Fatalf("stop frames %v", s)
		}
		m := e.ev.mark()
		e.render(id, seg("Too late."))
		if len(of[session.SpeechStart](e.ev.since(m))) != 0 {
			t.Fatal("a stopped late render played")
		}
	})
}

func TestSocketLeavingReadyBeforeRenderSpeaksNoConnection(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.srv.Kick(e.chat, websocket.StatusGoingAway, "bye")
		settle()
		evs := e.ev.since(m)
		f := of[session.FailureLine](evs)
		if len(f) != 1 || f[0].TurnID != id || f[0].Text != session.EnglishLines().NoConnection {
			t.Fatalf("events %+v", evs)
		}
		d := e.log.All("network_drop")
		if len(d) != 1 || d[0].Attrs["stage"] != "push_wait" {
			t.Fatalf("log %s", e.log.Dump())
		}
		// The socket is gone: the failed record waits for the next turn's
		// previous line; no playback frame is attempted (nor warned about).
		if w := e.log.All("push.playback_not_sent"); len(w) != 0 {
			t.Fatalf("tried to send playback on a dead socket: %s", e.log.Dump())
		}
	})
}

func TestSocketLeavingReadyAfterRenderOnlyLogs(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.render(id, seg("Part one."))
		m := e.ev.mark()
		e.srv.Kick(e.chat, websocket.StatusGoingAway, "bye")
		settle()
		if f := of[session.FailureLine](e.ev.since(m)); len(f) != 0 {
			t.Fatalf("failure line %+v", f)
		}
		d := e.log.All("network_drop")
		if len(d) != 1 || d[0].Attrs["stage"] != "push_turn_end" {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestSocketEventsShowStateCodeAndDelay(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.srv.Kick(e.chat, websocket.StatusGoingAway, "bye")
		settle()
		evs := of[session.Socket](e.ev.since(m))
		if len(evs) == 0 || evs[0].State != "reconnecting" || evs[0].Code != 1001 || evs[0].DelayMS != 1000 {
			t.Fatalf("socket events %+v", evs)
		}
		sleep(time.Second)
		evs = of[session.Socket](e.ev.since(m))
		if last := evs[len(evs)-1]; last.State != "ready" {
			t.Fatalf("no reconnect: %+v", evs)
		}
	})
}

func TestWrongKeyFailsAndReconnectRetries(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{key: "wrong"})
		evs := of[session.Socket](e.ev.all())
		if last := evs[len(evs)-1]; last.State != "failed" || last.Code != 4401 {
			t.Fatalf("socket %+v", evs)
		}
		sleep(time.Minute)
		if n := len(of[session.Socket](e.ev.all())); n != len(evs) {
			t.Fatal("retried after 4401")
		}
		m := e.ev.mark()
		e.s.Reconnect()
		settle()
		if s := of[session.Socket](e.ev.since(m)); len(s) == 0 || s[0].State != "connecting" {
			t.Fatalf("reconnect %+v", s)
		}
	})
}

func TestNetworkFailureRecordNotReplayedOnReconnect(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.srv.Kick(e.chat, websocket.StatusGoingAway, "bye")
		settle()
		sleep(time.Second) // reconnects
		if p := e.Plays(); len(p) != 0 {
			t.Fatalf("playback frames %+v", p)
		}
		rec := previous(t, e)
		if rec.Outcome != clientctx.Failed || rec.TurnID != id {
			t.Fatalf("record %+v", rec)
		}
		e.send("again")
		if tu := e.Turns(); !containsLine(tu[len(tu)-1].ClientContext, "previous: user.text_submitted failed") {
			t.Fatalf("next block:\n%s", tu[len(tu)-1].ClientContext)
		}
	})
}
