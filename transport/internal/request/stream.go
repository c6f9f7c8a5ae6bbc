package request

import (
	"strings"
	"time"

	"yui/transport"
)

// reasoningEvery coalesces reasoning deltas: one event at most this often
// (the rest goes out with the next speech or at the end of the turn).
const reasoningEvery = 100 * time.Millisecond

// Stream is what a Wire reports one round into. Its methods run on the
// turn's goroutine only.
type Stream struct {
	r     *run
	calls []Call
	text  strings.Builder // this round's assistant text
	state any
}

// Event notes that an event arrived (the idle limit starts over).
func (s *Stream) Event() { s.r.activity() }

// Text adds a delta of the reply; whole sentences go out as speech at once.
func (s *Stream) Text(delta string) {
	if delta == "" {
		return
	}
	s.text.WriteString(delta)
	s.r.text(delta)
}

// Reasoning adds a delta of the model's reasoning.
func (s *Stream) Reasoning(delta string) { s.r.reasoning(delta) }

// Tool shows a tool's progress in the pill ("running", "done", "failed").
// The cue tool is never shown.
func (s *Stream) Tool(name, state string) {
	if IsCue(name) {
		return
	}
	s.r.emit(transport.ToolStatus{TurnID: s.r.id, State: state, ToolID: name})
}

// Call records a completed function call. A cue plays at once: it rides on
// the next sentence (or the end of the reply).
func (s *Stream) Call(c Call) {
	if IsCue(c.Name) {
		s.r.cue(readCue(c.Arguments))
		c.Output = "ok"
	}
	s.calls = append(s.calls, c)
}

// Usage records the usage of the round's model call (the last one wins).
func (s *Stream) Usage(u transport.Usage) { s.r.usage = &u }

// SetState keeps what the wire needs of this round (a response id).
func (s *Stream) SetState(v any) { s.state = v }

// State is what SetState kept.
func (s *Stream) State() any { return s.state }
