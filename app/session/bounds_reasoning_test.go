package session_test

import (
	"fmt"
	"strings"
	"testing"

	"yui/app/session"
	"yui/transport/push"
)

// 300 deltas of 100 KB: what is kept is capped (newest kept, marked cut)
// and what goes out is, per event, the delta or a capped whole text — not
// the whole text again and again (4.5 GB to the page before).
func TestReasoningIsCappedAndSentAsDeltas(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		const n, size = 300, 100_000
		for i := range n {
			e.reasoning(id, strings.Repeat("r", size-6)+fmt.Sprintf("<%04d>", i))
		}
		evs := of[session.Reasoning](e.ev.since(m))
		if len(evs) != n {
			t.Fatalf("%d reasoning events for %d frames", len(evs), n)
		}
		out := 0
		for _, ev := range evs {
			if len(ev.Text) > session.ReasoningMax {
				t.Fatalf("kept %d bytes, over ReasoningMax", len(ev.Text))
			}
			if ev.Append {
				out += len(ev.Delta)
			} else {
				out += len(ev.Text)
			}
		}
		if limit := n * session.ReasoningMax; out > limit {
			t.Fatalf("%d bytes went out for %d frames, over %d", out, n, limit)
		}
		last := evs[len(evs)-1]
		if !last.Cut || !strings.HasSuffix(last.Text, "<0299>") || !strings.Contains(last.Text, "<0299>") ||
			strings.Contains(last.Text, "<0298>") {
			t.Fatalf("last text: cut %v, %d bytes, newest frame kept %v", last.Cut, len(last.Text), strings.Contains(last.Text, "<0299>"))
		}
	})
}

// Small deltas go out as appends until the cap, then once as the cut whole
// text, then as appends again.
func TestReasoningDeltasGoOutAsAppends(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		chunk := strings.Repeat("x", 8<<10)
		for range 9 {
			e.reasoning(id, chunk)
		}
		var shape []string
		shown := ""
		for _, ev := range of[session.Reasoning](e.ev.since(m)) {
			switch {
			case ev.Append:
				shape = append(shape, "append")
				shown += ev.Delta
			case ev.Cut:
				shape = append(shape, "cut")
				shown = ev.Text
			default:
				shape = append(shape, "whole")
				shown = ev.Text
			}
			if shown != ev.Text {
				t.Fatalf("applying the events gives %d bytes, the session shows %d", len(shown), len(ev.Text))
			}
		}
		eq(t, "events", shape, []string{"whole", "append", "append", "append", "append", "append", "append", "append", "cut"})
	})
}

func TestRenderReasoningIsCappedNewestKept(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		long := "OLDEST" + strings.Repeat("é", 100_000) + "NEWEST"
		e.must(e.srv.SendRender(e.chat, push.Render{TurnID: id, Segments: []push.Segment{{Speech: "Done."}}, Reasoning: long}))
		settle()
		evs := of[session.Reasoning](e.ev.since(m))
		if len(evs) != 1 {
			t.Fatalf("%d events", len(evs))
		}
		r := evs[0]
		if !r.Cut || len(r.Text) > session.ReasoningMax || !strings.HasSuffix(r.Text, "NEWEST") || strings.Contains(r.Text, "OLDEST") ||
			!strings.HasPrefix(r.Text, "é") {
			t.Fatalf("render reasoning: cut %v, %d bytes, prefix %q", r.Cut, len(r.Text), r.Text[:4])
		}
	})
}
