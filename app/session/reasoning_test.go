package session_test

import (
	"testing"

	"yui/app/session"
	"yui/transport/push"
)

func reasonings(evs []session.Event) []string {
	var out []string
	for _, ev := range of[session.Reasoning](evs) {
		s := ev.TurnID + ":" + ev.Text
		if ev.Streaming {
			s += "…"
		}
		out = append(out, s)
	}
	return out
}

func TestReasoningDeltasAppend(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.reasoning(id, "The log ")
		e.reasoning(id, "is first.")
		eq(t, "reasoning", reasonings(e.ev.since(m)), []string{id + ":The log …", id + ":The log is first.…"})
	})
}

func TestRenderReasoningReplaces(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.reasoning(id, "partial")
		m := e.ev.mark()
		e.must(e.srv.SendRender(e.chat, push.Render{TurnID: id, Segments: []push.Segment{{Speech: "Done."}}, Reasoning: "The whole text."}))
		settle()
		e.turnEnd(id, nil)
		eq(t, "reasoning", reasonings(e.ev.since(m)), []string{id + ":The whole text.…", id + ":The whole text."})
	})
}

func TestRenderReasoningWithoutDeltas(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.must(e.srv.SendRender(e.chat, push.Render{TurnID: id, Segments: []push.Segment{{Speech: "Done."}}, Reasoning: "Short version."}))
		settle()
		eq(t, "reasoning", reasonings(e.ev.since(m)), []string{id + ":Short version."})
	})
}

func TestOtherTurnReasoningHiddenWhileOneStreams(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.reasoning(id, "mine")
		m := e.ev.mark()
		e.must(e.srv.SendRender(e.chat, push.Render{TurnID: "hermes-1", Segments: []push.Segment{{Speech: "News."}}, Reasoning: "theirs"}))
		settle()
		e.reasoning("hermes-1", "more of theirs")
		eq(t, "reasoning", reasonings(e.ev.since(m)), nil)
		e.turnEnd(id, nil)
		e.reasoning("hermes-1", "now shown")
		eq(t, "after", reasonings(e.ev.since(m)), []string{id + ":mine", "hermes-1:now shown…"})
	})
}

func TestStoppedTurnDroppedRenderAbandonsStreamingReasoning(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.reasoning(id, "half a thought")
		e.s.Stop()
		settle()
		m := e.ev.mark()
		e.must(e.srv.SendRender(e.chat, push.Render{TurnID: id, Segments: []push.Segment{{Speech: "x."}}, Reasoning: "full"}))
		settle()
		eq(t, "reasoning", reasonings(e.ev.since(m)), []string{id + ":"})
	})
}

func TestAbandonKeepsTextAnEarlierRenderFinished(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.must(e.srv.SendRender(e.chat, push.Render{TurnID: id, Segments: []push.Segment{{Speech: "x."}}, Reasoning: "finished part"}))
		settle()
		e.reasoning(id, " and more")
		e.s.Stop()
		settle()
		m := e.ev.mark()
		e.render(id, seg("dropped."))
		eq(t, "reasoning", reasonings(e.ev.since(m)), []string{id + ":finished part"})
	})
}

func TestTurnEndEndsStreamingReasoning(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.reasoning(id, "thinking")
		m := e.ev.mark()
		e.turnEnd(id, nil)
		eq(t, "reasoning", reasonings(e.ev.since(m)), []string{id + ":thinking"})
	})
}

func TestStoppedTurnEndEndsItsReasoning(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.reasoning(id, "thinking")
		e.s.Stop()
		settle()
		m := e.ev.mark()
		e.turnEnd(id, nil)
		eq(t, "reasoning", reasonings(e.ev.since(m)), []string{id + ":thinking"})
	})
}

func TestNewTurnReasoningReplacesFinishedOne(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.reasoning(a, "first")
		e.turnEnd(a, nil)
		b := e.send("two")
		m := e.ev.mark()
		e.reasoning(b, "second")
		eq(t, "reasoning", reasonings(e.ev.since(m)), []string{b + ":second…"})
	})
}
