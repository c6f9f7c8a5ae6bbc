package session

import (
	"unicode/utf8"

	"yui/transport"
)

// Reasoning bounds: the display keeps at most ReasoningMax bytes of one
// turn's reasoning, the newest. When a delta would take it past that, the
// head is dropped down to ReasoningKeep bytes (at a character boundary)
// and the text is marked cut; the slack between the two is what lets
// most deltas go out as appends rather than whole texts.
const (
	ReasoningMax  = 64 << 10
	ReasoningKeep = 48 << 10
)

// reasoningState is the reasoning display: one turn's text at a time.
type reasoningState struct {
	turnID    string
	text      string
	cut       bool   // the head of text was dropped
	finished  string // the text the turn's last render carried
	finCut    bool
	streaming bool // deltas arrived and the turn has not ended
}

// emitReasoning shows the whole text.
func (s *Session) emitReasoning() {
	r := s.st.reasoning
	s.emit(Reasoning{TurnID: r.turnID, Text: r.text, Streaming: r.streaming, Cut: r.cut})
}

// onReasoning appends a delta. A stopped turn's delta is dropped; while
// another turn's reasoning streams, this one is not shown. A delta that
// fits goes out as an append; one that makes the text drop its head goes
// out as the whole (cut) text.
func (s *Session) onReasoning(f transport.Reasoning) {
	t := s.turnFor(f.TurnID, true)
	if t != nil && t.stopped {
		return
	}
	r := &s.st.reasoning
	if r.streaming && r.turnID != f.TurnID {
		return
	}
	fresh := r.turnID != f.TurnID
	if fresh {
		*r = reasoningState{turnID: f.TurnID}
	}
	r.streaming = true
	if len(r.text)+len(f.Delta) <= ReasoningMax {
		r.text += f.Delta
		if fresh {
			s.emitReasoning()
			return
		}
		s.emit(Reasoning{TurnID: r.turnID, Text: r.text, Streaming: true, Cut: r.cut,
			Append: true, Delta: f.Delta})
		return
	}
	r.text, r.cut = keepTail(r.text+f.Delta, ReasoningKeep), true
	s.emitReasoning()
}

// keepTail returns the newest bytes of s, at most n, starting at a
// character boundary.
func keepTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// capped returns text within ReasoningMax (its newest ReasoningKeep bytes
// when over) and whether it was cut.
func capped(text string) (string, bool) {
	if len(text) <= ReasoningMax {
		return text, false
	}
	return keepTail(text, ReasoningKeep), true
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
	text, cut := capped(text)
	r.text, r.cut, r.finished, r.finCut = text, cut, text, cut
	s.emitReasoning()
}

// abandonReasoning: a stopped turn's render was dropped; the reasoning
// still streaming for it is abandoned, back to what a render finished.
func (s *Session) abandonReasoning(turnID string) {
	r := &s.st.reasoning
	if r.turnID != turnID || !r.streaming {
		return
	}
	r.text, r.cut, r.streaming = r.finished, r.finCut, false
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
