package session

import "yui/transport"

// reasoningState is the reasoning display: one turn's text at a time.
type reasoningState struct {
	turnID    string
	text      string
	finished  string // the text the turn's last render carried
	streaming bool   // deltas arrived and the turn has not ended
}

func (s *Session) emitReasoning() {
	r := s.st.reasoning
	s.emit(Event{Kind: KindReasoning, TurnID: r.turnID, Text: r.text, Streaming: r.streaming})
}

// onReasoning appends a delta. A stopped turn's delta is dropped; while
// another turn's reasoning streams, this one is not shown.
func (s *Session) onReasoning(f transport.Reasoning) {
	t := s.turnFor(f.TurnID, true)
	if t != nil && t.stopped {
		return
	}
	r := &s.st.reasoning
	if r.streaming && r.turnID != f.TurnID {
		return
	}
	if r.turnID != f.TurnID {
		*r = reasoningState{turnID: f.TurnID}
	}
	r.text += f.Delta
	r.streaming = true
	s.emitReasoning()
}

// renderReasoning replaces the shown text with a render's reasoning,
// unless another turn's reasoning is streaming.
func (s *Session) renderReasoning(turnID, text string) {
	r := &s.st.reasoning
	if r.streaming && r.turnID != turnID {
		return
	}
	if r.turnID != turnID {
		*r = reasoningState{turnID: turnID}
	}
	r.text, r.finished = text, text
	s.emitReasoning()
}

// abandonReasoning: a stopped turn's render was dropped; the reasoning
// still streaming for it is abandoned, back to what a render finished.
func (s *Session) abandonReasoning(turnID string) {
	r := &s.st.reasoning
	if r.turnID != turnID || !r.streaming {
		return
	}
	r.text, r.streaming = r.finished, false
	s.emitReasoning()
}

// endReasoning: the turn's turn_end ends its reasoning still streaming.
func (s *Session) endReasoning(turnID string) {
	r := &s.st.reasoning
	if r.turnID != turnID || !r.streaming {
		return
	}
	r.streaming = false
	s.emitReasoning()
}

// clearReasoning empties the display (reset).
func (s *Session) clearReasoning() {
	if s.st.reasoning == (reasoningState{}) {
		return
	}
	s.st.reasoning = reasoningState{}
	s.emitReasoning()
}
