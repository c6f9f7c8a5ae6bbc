package session_test

import (
	"slices"
	"testing"
	"yui/app/session"
)

// Barge-in: the cut turn muted until the next accepted reply, its frames dropped.

func TestBargeInMutesTheCutTurnUntilNextAcceptedReply(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.render(a, seg("Talking."))
		e.s.BargeIn()
		settle()
		if s := e.Stops(); len(s) != 1 || !slices.Equal(s[0], []string{a}) {
			t.Fatalf("barge-in's stop frames %v, want one naming %s", s, a)
		}
		// The cut turn closes; its late render plays, shown but not voiced.
		e.turnEnd(a, nil)
		m := e.ev.mark()
		e.render(a, seg("Late part."))
		e.drain()
		sp := of[session.SpeechStart](e.ev.since(m))
		if len(sp) != 1 || !sp[0].Muted || sp[0].Text != "Late part." {
			t.Fatalf("cut turn's late render after barge-in: %+v", sp)
		}
		// A report of a turn the barge-in did not cut is the next accepted
		// reply: voiced, and the mute is over.
		e.render("hermes-2", seg("Backend news."))
		e.drain()
		e.render(a, seg("Later still."))
		e.drain()
		sp = of[session.SpeechStart](e.ev.since(m))
		if len(sp) != 3 || sp[1].Muted || sp[1].Text != "Backend news." || sp[2].Muted {
			t.Fatalf("after the next accepted reply: %+v", sp)
		}
	})
}

func TestBargeInUnmutesOnTheSpokenTurnsReply(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.render(a, seg("Talking."))
		e.s.BargeIn()
		settle()
		b := e.s.SendSpoken("what I said")
		settle()
		m := e.ev.mark()
		e.render(b, seg("Reply."))
		e.drain()
		sp := of[session.SpeechStart](e.ev.since(m))
		if len(sp) != 1 || sp[0].Muted || sp[0].Text != "Reply." {
			t.Fatalf("next reply: %+v", sp)
		}
	})
}

func TestBargeInDoesNotMuteLaterBackendReports(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.render("hermes-1", seg("A long report that keeps going."))
		e.s.BargeIn()
		settle()
		m := e.ev.mark()
		e.render("hermes-2", seg("Another report."))
		e.drain()
		sp := of[session.SpeechStart](e.ev.since(m))
		if len(sp) != 1 || sp[0].Muted {
			t.Fatalf("a report of an uncut turn after barge-in: %+v", sp)
		}
	})
}

func TestBargeInDropsCutTurnFrames(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.render(a, seg("Talking."))
		e.s.BargeIn()
		settle()
		m := e.ev.mark()
		e.render(a, seg("More."))
		e.drain()
		if sp := of[session.SpeechStart](e.ev.since(m)); len(sp) != 0 {
			t.Fatalf("cut turn played: %+v", sp)
		}
	})
}
