package session_test

import (
	"testing"
	"time"

	"github.com/coder/websocket"

	"yui/app/session"
	"yui/transport"
	"yui/transport/push"
)

func pills(evs []session.Event) []string {
	var out []string
	for _, ev := range of[session.Pill](evs) {
		if ev.Tool == nil {
			out = append(out, "clear")
			continue
		}
		s := ev.Tool.ToolID + ":" + ev.Tool.State
		if ev.Tool.Phrase != "" {
			s += ":" + ev.Tool.Phrase
		}
		out = append(out, s)
	}
	return out
}

func TestToolStatusShowsPillWithPhraseForOwnTurn(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.toolStatus(id, "running", "read_file")
		evs := e.ev.since(m)
		eq(t, "pill", pills(evs), []string{"read_file:running:Using read_file…"})
		eq(t, "filler", texts(evs, session.KindFiller), []string{"Let me check on that..."})
	})
}

func TestToolFillerOncePerTurn(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.toolStatus(id, "running", "a")
		e.toolStatus(id, "done", "a")
		e.toolStatus(id, "running", "b")
		if f := texts(e.ev.since(m), session.KindFiller); len(f) != 1 {
			t.Fatalf("fillers %v", f)
		}
	})
}

func TestNoToolFillerAfterFirstRender(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.render(id, seg("Let me see."))
		m := e.ev.mark()
		e.toolStatus(id, "running", "a")
		if f := texts(e.ev.since(m), session.KindFiller); len(f) != 0 {
			t.Fatalf("fillers %v", f)
		}
	})
}

func TestDoneHeldForOnePointFiveSeconds(t *testing.T) {
	for _, state := range []string{"done", "failed"} {
		t.Run(state, func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				e := newEnv(t, envOpts{})
				id := e.send("hi")
				e.toolStatus(id, "running", "grep")
				m := e.ev.mark()
				e.toolStatus(id, state, "grep")
				sleep(session.PillHold - time.Millisecond)
				eq(t, "held", pills(e.ev.since(m)), []string{"grep:" + state + ":Using grep…"})
				sleep(time.Millisecond)
				eq(t, "cleared", pills(e.ev.since(m)), []string{"grep:" + state + ":Using grep…", "clear"})
			})
		})
	}
}

func TestNewStatusDuringHoldReplacesIt(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.toolStatus(id, "done", "a")
		sleep(time.Second)
		e.toolStatus(id, "running", "b")
		sleep(time.Second)
		eq(t, "pill", pills(e.ev.since(m)), []string{"a:done:Using a…", "b:running:Using b…"})
	})
}

func TestTurnEndClearsRunningTool(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.toolStatus(id, "running", "grep")
		m := e.ev.mark()
		e.turnEnd(id, nil)
		eq(t, "pill", pills(e.ev.since(m)), []string{"clear"})
	})
}

func TestTurnEndKeepsDoneHold(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.toolStatus(id, "done", "grep")
		m := e.ev.mark()
		e.turnEnd(id, nil)
		eq(t, "pill at turn_end", pills(e.ev.since(m)), nil)
		sleep(session.PillHold)
		eq(t, "pill after hold", pills(e.ev.since(m)), []string{"clear"})
	})
}

func TestOtherTurnsTurnEndLeavesPill(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.toolStatus(id, "running", "grep")
		m := e.ev.mark()
		e.render("hermes-1", seg(""))
		e.turnEnd("hermes-1", nil)
		eq(t, "pill", pills(e.ev.since(m)), nil)
	})
}

func TestSocketLeavingReadyClearsRunningTool(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.toolStatus(id, "running", "grep")
		m := e.ev.mark()
		e.srv.Kick(e.chat, websocket.StatusGoingAway, "bye")
		settle()
		eq(t, "pill", pills(e.ev.since(m)), []string{"clear"})
	})
}

func TestBackendTurnToolShowsWithoutPhrase(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.toolStatus("hermes-1", "running", "crawl")
		evs := e.ev.since(m)
		eq(t, "pill", pills(evs), []string{"crawl:running"})
		if f := of[session.Filler](evs); len(f) != 0 {
			t.Fatalf("tool phrase spoken for another turn: %+v", f)
		}
	})
}

func TestBrowserStatusLeavesPillAlone(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{tools: []push.Tool{transport.ToolFunc{Name: "browser"}}})
		id := e.send("hi")
		m := e.ev.mark()
		e.toolStatus(id, "running", "browser")
		e.toolStatus(id, "done", "browser")
		evs := e.ev.since(m)
		if len(of[session.Pill](evs)) != 0 || len(of[session.Filler](evs)) != 0 {
			t.Fatalf("browser status changed the pill: %v", kinds(evs))
		}
		if r := e.log.All("push.tool_status"); len(r) != 2 {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestBrowserStatusCountsForFrameWait(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{tools: []push.Tool{transport.ToolFunc{Name: "browser"}}})
		id := e.send("hi")
		sleep(push.TurnFrameWait - time.Second)
		e.toolStatus(id, "running", "browser")
		m := e.ev.mark()
		sleep(2 * time.Second)
		if f := of[session.FailureLine](e.ev.since(m)); len(f) != 0 {
			t.Fatalf("failure %+v", f)
		}
	})
}

func TestUndeclaredBrowserToolShowsPill(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.toolStatus(id, "running", "browser")
		if p := pills(e.ev.since(m)); len(p) != 1 {
			t.Fatalf("pill %v", p)
		}
	})
}

func TestToolStatusLogLine(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.toolStatus(id, "failed", "grep")
		r := e.log.All("push.tool_status")
		if len(r) != 1 || r[0].Attrs["turn_id"] != id || r[0].Attrs["state"] != "failed" || r[0].Attrs["tool_id"] != "grep" {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestToolStatusLeavesRunningStateAndSpeech(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.render("hermes-1", seg("Report going on."))
		m := e.ev.mark()
		e.toolStatus(id, "running", "grep")
		e.drain0()
		evs := e.ev.since(m)
		if len(of[session.Composer](evs)) != 0 || len(of[session.Plate](evs)) != 0 {
			t.Fatalf("running state changed: %v", kinds(evs))
		}
		eq(t, "speech went on", texts(evs, session.KindSpeechEnd), []string{"Report going on."})
	})
}
