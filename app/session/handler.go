package session

import (
	"yui/transport/push"
)

// handler is the push.Handler of a session: it moves every call onto the
// actor, in the order the client made them.
type handler struct{ s *Session }

// HandleFrame waits while the actor has a full queue of frames: the push
// client's read loop then stops reading (backpressure).
func (h handler) HandleFrame(f push.Frame) { h.s.mb.postFrame(func() { h.s.onFrame(f) }) }

func (h handler) HandleState(c push.StateChange) { h.s.post(func() { h.s.onState(c) }) }

func (h handler) HandleTurnWait(w push.TurnWaitEnded) { h.s.post(func() { h.s.onTurnWait(w) }) }

// HandleToolCall reports every tool_call the client answers (push.ToolObserver).
func (h handler) HandleToolCall(c push.ToolCall) {
	h.s.post(func() {
		h.s.emit(Event{Kind: KindToolCall, CallID: c.ID, TurnID: c.TurnID, Name: c.Name, Arguments: c.Arguments})
	})
}

// HandleToolResult reports the tool_result frame the client sent, as sent.
func (h handler) HandleToolResult(r push.ToolResult) {
	h.s.post(func() {
		h.s.emit(Event{Kind: KindToolResult, CallID: r.ID, TurnID: r.TurnID, Result: r.Result})
	})
}

// onFrame routes one inbound frame.
func (s *Session) onFrame(f push.Frame) {
	switch f := f.(type) {
	case push.Render:
		s.onRender(f)
	case push.Speech:
		s.onSpeech(f)
	case push.TurnEnd:
		s.onTurnEnd(f)
	case push.ErrorFrame:
		s.onError(f)
	case push.ToolStatus:
		s.onToolStatus(f)
	case push.Reasoning:
		s.onReasoning(f)
	case push.Delegations:
		s.onDelegations(f)
	}
}

// ready reports whether the socket is ready, as the actor last heard.
func (s *Session) ready() bool { return s.st.socket == push.StateReady }

// onState shows the connection state. Leaving ready closes the open
// utterance and clears a running tool from the pill; the turns it ends
// arrive through onTurnWait.
func (s *Session) onState(c push.StateChange) {
	s.st.socket = c.To
	e := Event{Kind: KindSocket, State: c.To.String(), Code: c.CloseCode, DelayMS: c.RetryIn.Milliseconds()}
	if c.Err != nil {
		e.Err = c.Err.Error()
	}
	s.emit(e)
	if c.From == push.StateReady && c.To != push.StateReady {
		// The spec: the open utterance closes on the socket leaving ready,
		// whatever its turn (a backend-started turn's included), so the
		// cues waiting on its boundary fire.
		s.player.CloseOpen()
		if p := s.st.pill.cur; p != nil && p.State == "running" {
			s.setPill(nil)
		}
	}
}

// onTurnWait ends a turn whose frame wait passed or whose socket left
// ready. Before its first render the failure line is spoken and a failed
// record kept; after it, the push client's log line is all. The turn
// stays outstanding: a late render plays until a user action stops it.
func (s *Session) onTurnWait(w push.TurnWaitEnded) {
	t := s.st.turns[w.TurnID]
	if t == nil || t.stopped || !t.origin.sent() || s.closing.Load() {
		return // Close ends turns silently: quitting is no network failure
	}
	s.player.CutFillers(t.id)
	s.player.EndUtterance(t.id)
	t.running = false
	t.stopTimers()
	if !t.rendered && !t.failureSpoken {
		line := s.lines.GaveUp
		if w.Reason == push.SocketLeftReady {
			line = s.lines.NoConnection
		}
		t.failureSpoken = true
		s.sayFailure(t.id, line)
		s.recordFailed(t)
	}
	s.syncRunning()
}
