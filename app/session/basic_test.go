package session_test

import (
	"testing"

	"yui/app/session"
	"yui/transport/push"
)

func TestTypedTurnRendersAndEnds(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		id := e.send("hello")
		e.render(id, seg("All green.", push.Cue{EmotionID: "happy"}))
		e.turnEnd(id, &push.Usage{InputTokens: 1, OutputTokens: 2, TotalTokens: 3})
		e.drain()
		evs := e.ev.since(m)
		t.Logf("%v", kinds(evs))
		eq(t, "script", script(evs), []string{"cue e=thinking,m=thinking", "filler Let me think...", "cue e=neutral,m=idle", "cue e=happy", "say All green.", "cue e=neutral"})
		if u := of[session.Usage](evs); len(u) != 1 || u[0].TotalTokens != 3 || u[0].ContextWindow != 128000 {
			t.Fatalf("usage %+v", u)
		}
	})
}
