package session_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"yui/app/session"
	"yui/transport/push"
)

// A backend that starts turns and never ends them cannot grow the
// outstanding set: past MaxBackendTurns the oldest is forgotten, and the
// stop frame, which names every outstanding turn, stays within 256 KiB
// (1,100 turns with 250-byte ids made it 275 KB: never sent).
func TestBackendTurnsThatNeverEndAreBounded(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := func(i int) string { return fmt.Sprintf("bg-%04d-", i) + strings.Repeat("x", 241) }
		const n = 1100
		for i := range n {
			e.must(e.srv.SendRender(e.chat, push.Render{TurnID: id(i), Source: "test", Segments: []push.Segment{seg("")}}))
		}
		settle()
		mine := e.send("and you?")
		e.s.Stop()
		settle()
		stops := e.Stops()
		if len(stops) != 1 {
			t.Fatalf("%d stop frames; logs:\n%s", len(stops), e.log.Dump())
		}
		ids := stops[0]
		raw, _ := json.Marshal(push.Stop{TurnIDs: ids})
		if len(raw) > push.MaxFrameBytes {
			t.Fatalf("stop frame of %d bytes", len(raw))
		}
		if len(ids) != session.MaxBackendTurns+1 {
			t.Fatalf("the stop names %d turns, want the %d newest backend turns and the typed one", len(ids), session.MaxBackendTurns)
		}
		named := strings.Join(ids, ",")
		if !strings.Contains(named, mine) || !strings.Contains(named, id(n-1)) || strings.Contains(named, id(n-session.MaxBackendTurns-1)) {
			t.Fatalf("the stop does not name the newest turns")
		}
		if f := e.log.All("turn_forgotten"); len(f) != n-session.MaxBackendTurns || f[0].Attrs["reason"] != "backend_turns" {
			t.Fatalf("%d turn_forgotten lines, want %d", len(f), n-session.MaxBackendTurns)
		}
	})
}

// Stopped turns that never get their turn_end are bounded too.
func TestStoppedTurnsThatNeverEndAreBounded(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		var last string
		for i := range session.MaxStoppedTurns + 40 {
			last = e.send(fmt.Sprint("line ", i)) // each new turn stops the one before
		}
		e.s.Stop()
		settle()
		stops := e.Stops()
		ids := stops[len(stops)-1]
		if len(ids) != session.MaxStoppedTurns+1 || ids[len(ids)-1] != last {
			t.Fatalf("the stop names %d turns (last %s), want the %d stopped and %s", len(ids), ids[len(ids)-1], session.MaxStoppedTurns, last)
		}
	})
}
