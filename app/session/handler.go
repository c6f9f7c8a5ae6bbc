package session

import (
	"yui/transport"
)

// handler is the transport.Handler of a session: it moves every call onto the
// actor, in the order the transport made them.
type handler struct{ s *Session }

// HandleEvent waits while the actor has a full queue of backend events:
// the transport's reading goroutine then stops reading (backpressure).
func (h handler) HandleEvent(e transport.Event) { h.s.mb.postFrame(func() { h.s.onEvent(e) }) }

func (h handler) HandleState(c transport.StateChange) { h.s.post(func() { h.s.onState(c) }) }

func (h handler) HandleTurnWait(w transport.TurnWaitEnded) { h.s.post(func() { h.s.onTurnWait(w) }) }

// HandleToolCall reports every client tool call the transport answers.
func (h handler) HandleToolCall(c transport.ToolCall) {
	h.s.post(func() {
		h.s.emit(ToolCall{CallID: c.ID, TurnID: c.TurnID, Name: c.Name, Arguments: c.Arguments})
	})
}

// HandleToolResult reports the answer the transport sent, as sent.
func (h handler) HandleToolResult(r transport.ToolResult) {
	h.s.post(func() {
		h.s.emit(ToolResult{CallID: r.ID, TurnID: r.TurnID, Result: r.Result})
	})
}

// onEvent routes one transport event.
func (s *Session) onEvent(e transport.Event) {
	switch f := e.(type) {
	case transport.Render:
		s.onRender(f)
	case transport.Speech:
		s.onSpeech(f)
	case transport.TurnEnd:
		s.onTurnEnd(f)
	case transport.TurnError:
		s.onError(f)
	case transport.ToolStatus:
		s.onToolStatus(f)
	case transport.Reasoning:
		s.onReasoning(f)
	case transport.Delegations:
		s.onDelegations(f)
	}
}

// ready reports whether the socket is ready, as the actor last heard.
func (s *Session) ready() bool { return s.st.socket == transport.StateReady }

// onState shows the connection state. Leaving ready closes the open
// utterance and clears a running tool from the pill; the turns it ends
// arrive through onTurnWait.
func (s *Session) onState(c transport.StateChange) {
	s.st.socket = c.To
	e := Socket{State: c.To.String(), Code: c.Code, DelayMS: c.RetryIn.Milliseconds(),
		Unauthorized: c.Unauthorized()}
	if c.Err != nil {
		e.Err = c.Err.Error()
		e.Cause = c.Err
	}
	s.emit(e)
	if c.From == transport.StateReady && c.To != transport.StateReady {
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
func (s *Session) onTurnWait(w transport.TurnWaitEnded) {
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
		if w.Reason == transport.SocketLeftReady {
			line = s.lines.NoConnection
		}
		t.failureSpoken = true
		s.sayFailure(t.id, line)
		s.recordFailed(t)
	}
	s.syncRunning()
}
