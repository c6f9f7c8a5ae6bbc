package session

import (
	"encoding/json"
	"time"

	"yui/app/cue"
	"yui/app/delegation"
)

// Kind names a UI event. The values are the `event` names of
// `yui console --json` (docs/console.md); they are a public interface.
type Kind string

// Event kinds, one per event type below.
const (
	KindSocket      Kind = "socket"
	KindTurnSent    Kind = "turn_sent"
	KindComposer    Kind = "composer"
	KindPlate       Kind = "plate"
	KindCue         Kind = "cue"
	KindSpeechStart Kind = "speech_start"
	KindSpeechEnd   Kind = "speech_end"
	KindFiller      Kind = "filler"
	KindFailureLine Kind = "failure_line"
	KindErrorLine   Kind = "error_line"
	KindPill        Kind = "pill"
	KindReasoning   Kind = "reasoning"
	KindUsage       Kind = "usage"
	KindDelegations Kind = "delegations"
	KindTurnEnd     Kind = "turn_end"
	KindToolCall    Kind = "tool_call"
	KindToolResult  Kind = "tool_result"
)

// Kinds lists every event kind, in documentation order.
func Kinds() []Kind {
	return []Kind{KindSocket, KindTurnSent, KindComposer, KindPlate, KindCue,
		KindSpeechStart, KindSpeechEnd, KindFiller, KindFailureLine, KindErrorLine,
		KindPill, KindReasoning, KindUsage, KindDelegations, KindTurnEnd,
		KindToolCall, KindToolResult}
}

// Where values of an error_line event.
const (
	WhereComposer = "composer" // the input's error line (typed turns, actions)
	WherePill     = "pill"     // the status pill (spoken turns)
)

// Event is one thing the view shows or plays: one of the types below (the
// set is closed). A consumer switches on the type and handles the ones it
// shows; a new event is a new type here and a case where it is used.
type Event interface {
	// Kind is the event's name (the console's "event").
	Kind() Kind
	// When is when the session emitted it.
	When() time.Time
	// stamped is the event with At set (the session stamps each event
	// as it emits it).
	stamped(at time.Time) Event
}

// Socket: the connection changed state.
type Socket struct {
	At    time.Time
	State string // disconnected, connecting, ready, reconnecting, failed
	Code  int    // the wire's close code, -1 when none (logs and console only)
	// Unauthorized: the backend refused the key (push 4401, HTTP 401/403).
	Unauthorized bool
	DelayMS      int64  // reconnecting: the delay before the next attempt
	Err          string // why the socket left its state, when known
	// Cause is the error behind Err, for conncause.Explain (nil when none).
	Cause error
}

// TurnSent: the client sent a turn (Text is what the user typed or said,
// "" for a trigger).
type TurnSent struct {
	At     time.Time
	TurnID string
	Text   string
	// From is the character who addressed her (a `character <name>`
	// trigger: Text is what that character said); "" otherwise.
	From string
}

// Composer: the composer locks while a turn runs.
type Composer struct {
	At     time.Time
	Locked bool
}

// Plate: the name plate's text ("thinking" or "").
type Plate struct {
	At   time.Time
	Text string
}

// Cue: a face or motion applied (TurnID empty for the client's own).
type Cue struct {
	At     time.Time
	TurnID string
	Cue    cue.Cue // the applied (vocabulary-resolved) fields
}

// SpeechStart: a sentence starts playing (Muted: shown, not voiced).
type SpeechStart struct {
	At     time.Time
	TurnID string
	Text   string
	Muted  bool
}

// SpeechEnd: the sentence of the last SpeechStart ended.
type SpeechEnd struct {
	At     time.Time
	TurnID string
	Text   string
	Muted  bool
}

// Filler: a filler line while a turn waits.
type Filler struct {
	At     time.Time
	TurnID string
	Text   string
}

// FailureLine: what she says when a turn failed.
type FailureLine struct {
	At     time.Time
	TurnID string
	Text   string
}

// ErrorLine: an error shown at Where (WhereComposer or WherePill).
type ErrorLine struct {
	At     time.Time
	TurnID string
	Text   string
	Where  string
}

// Pill: the status pill's tool segment (Tool nil: clear).
type Pill struct {
	At   time.Time
	Tool *ToolPill
}

// Reasoning: the reasoning text shown for a turn.
type Reasoning struct {
	At        time.Time
	TurnID    string
	Text      string
	Streaming bool   // more deltas may follow
	Cut       bool   // the head of the text was dropped (ReasoningMax)
	Append    bool   // Text is the text shown before plus Delta
	Delta     string // what Append added
}

// Usage: the last turn's token usage.
type Usage struct {
	At            time.Time
	TotalTokens   int64
	ContextWindow int // the preset's context window, 0 = unknown
}

// Delegations: the background tasks.
type Delegations struct {
	At      time.Time
	Items   []delegation.Item // what the chip shows now
	History []delegation.Item // the persisted history, newest first
}

// TurnEnd: the backend ended a turn.
type TurnEnd struct {
	At     time.Time
	TurnID string
}

// ToolCall: the backend called a client tool.
type ToolCall struct {
	At        time.Time
	CallID    string
	TurnID    string
	Name      string
	Arguments json.RawMessage
}

// ToolResult: the client answered a tool call.
type ToolResult struct {
	At     time.Time
	CallID string
	TurnID string
	Result string
}

func (Socket) Kind() Kind      { return KindSocket }
func (TurnSent) Kind() Kind    { return KindTurnSent }
func (Composer) Kind() Kind    { return KindComposer }
func (Plate) Kind() Kind       { return KindPlate }
func (Cue) Kind() Kind         { return KindCue }
func (SpeechStart) Kind() Kind { return KindSpeechStart }
func (SpeechEnd) Kind() Kind   { return KindSpeechEnd }
func (Filler) Kind() Kind      { return KindFiller }
func (FailureLine) Kind() Kind { return KindFailureLine }
func (ErrorLine) Kind() Kind   { return KindErrorLine }
func (Pill) Kind() Kind        { return KindPill }
func (Reasoning) Kind() Kind   { return KindReasoning }
func (Usage) Kind() Kind       { return KindUsage }
func (Delegations) Kind() Kind { return KindDelegations }
func (TurnEnd) Kind() Kind     { return KindTurnEnd }
func (ToolCall) Kind() Kind    { return KindToolCall }
func (ToolResult) Kind() Kind  { return KindToolResult }

func (e Socket) When() time.Time      { return e.At }
func (e TurnSent) When() time.Time    { return e.At }
func (e Composer) When() time.Time    { return e.At }
func (e Plate) When() time.Time       { return e.At }
func (e Cue) When() time.Time         { return e.At }
func (e SpeechStart) When() time.Time { return e.At }
func (e SpeechEnd) When() time.Time   { return e.At }
func (e Filler) When() time.Time      { return e.At }
func (e FailureLine) When() time.Time { return e.At }
func (e ErrorLine) When() time.Time   { return e.At }
func (e Pill) When() time.Time        { return e.At }
func (e Reasoning) When() time.Time   { return e.At }
func (e Usage) When() time.Time       { return e.At }
func (e Delegations) When() time.Time { return e.At }
func (e TurnEnd) When() time.Time     { return e.At }
func (e ToolCall) When() time.Time    { return e.At }
func (e ToolResult) When() time.Time  { return e.At }

func (e Socket) stamped(at time.Time) Event      { e.At = at; return e }
func (e TurnSent) stamped(at time.Time) Event    { e.At = at; return e }
func (e Composer) stamped(at time.Time) Event    { e.At = at; return e }
func (e Plate) stamped(at time.Time) Event       { e.At = at; return e }
func (e Cue) stamped(at time.Time) Event         { e.At = at; return e }
func (e SpeechStart) stamped(at time.Time) Event { e.At = at; return e }
func (e SpeechEnd) stamped(at time.Time) Event   { e.At = at; return e }
func (e Filler) stamped(at time.Time) Event      { e.At = at; return e }
func (e FailureLine) stamped(at time.Time) Event { e.At = at; return e }
func (e ErrorLine) stamped(at time.Time) Event   { e.At = at; return e }
func (e Pill) stamped(at time.Time) Event        { e.At = at; return e }
func (e Reasoning) stamped(at time.Time) Event   { e.At = at; return e }
func (e Usage) stamped(at time.Time) Event       { e.At = at; return e }
func (e Delegations) stamped(at time.Time) Event { e.At = at; return e }
func (e TurnEnd) stamped(at time.Time) Event     { e.At = at; return e }
func (e ToolCall) stamped(at time.Time) Event    { e.At = at; return e }
func (e ToolResult) stamped(at time.Time) Event  { e.At = at; return e }

// ToolPill is the status pill's tool segment.
type ToolPill struct {
	TurnID string `json:"turn_id"`
	ToolID string `json:"tool_id"`
	State  string `json:"state"` // running, done, failed
	// Phrase is the line shown beside the state for a turn the client
	// sent; empty for another turn's tool.
	Phrase string `json:"phrase,omitempty"`
}
