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
	text  strings.Builder // this round's assistant text, its first MaxReplyKept bytes
	state any
	err   error // a bound the answer broke (Err)
	// quiet: a memory summary's answer, kept in text only (nothing is
	// spoken, shown or timed by the turn's idle limit).
	quiet bool
}

// Err is the bound the answer broke (too many calls, an id too long), as a
// *StreamError that fails the turn; nil while within them. A wire stops
// reading when it is set.
func (s *Stream) Err() error { return s.err }

// Fail fails the turn with a stream error of text (a bound the answer
// broke), once; a wire stops reading.
func (s *Stream) Fail(text string) {
	if s.err == nil {
		s.r.e.log.Warn("request_stream_bound", "turn_id", s.r.id, "reason", text)
		s.err = &StreamError{Text: text}
	}
}

// Event notes that an event arrived (the idle limit starts over).
func (s *Stream) Event() {
	if !s.quiet {
		s.r.activity()
	}
}

// Text adds a delta of the reply; whole sentences go out as speech at once.
func (s *Stream) Text(delta string) {
	if delta == "" {
		return
	}
	keepHead(&s.text, delta, MaxReplyKept)
	if !s.quiet {
		s.r.text(delta)
	}
}

// Reasoning adds a delta of the model's reasoning.
func (s *Stream) Reasoning(delta string) {
	if !s.quiet {
		s.r.reasoning(delta)
	}
}

// Tool shows a tool's progress in the pill ("running", "done", "failed").
// The cue tool is never shown.
func (s *Stream) Tool(name, state string) {
	if IsCue(name) || s.quiet {
		return
	}
	s.r.emit(transport.ToolStatus{TurnID: s.r.id, State: state, ToolID: name})
}

// Call records a completed function call. A cue plays at once: it rides on
// the next sentence (or the end of the reply).
// A call past MaxCallsPerRound, or one whose id or name broke
// MaxIDBytes, fails the turn (Err).
func (s *Stream) Call(c Call) {
	switch {
	case s.err != nil:
		return
	case c.over != "":
		s.Fail(c.over)
		return
	case len(s.calls) >= MaxCallsPerRound:
		s.Fail(TooManyCalls)
		return
	}
	if IsCue(c.Name) {
		if c.Refused == "" && !s.quiet {
			s.r.cue(readCue(c.Arguments))
		}
		c.Output = "ok"
	}
	s.calls = append(s.calls, c)
}

// Usage records the usage of the round's model call (the last one wins).
func (s *Stream) Usage(u transport.Usage) {
	if !s.quiet {
		s.r.usage = &u
	}
}

// SetState keeps what the wire needs of this round (a response id).
func (s *Stream) SetState(v any) { s.state = v }

// State is what SetState kept.
func (s *Stream) State() any { return s.state }
