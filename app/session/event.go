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

// Event kinds.
const (
	KindSocket      Kind = "socket"       // State, Code, DelayMS
	KindTurnSent    Kind = "turn_sent"    // TurnID, Text
	KindComposer    Kind = "composer"     // Locked
	KindPlate       Kind = "plate"        // Text ("thinking" or "")
	KindCue         Kind = "cue"          // TurnID (empty for the client's own), Cue
	KindSpeechStart Kind = "speech_start" // TurnID, Text, Muted
	KindSpeechEnd   Kind = "speech_end"   // TurnID, Text, Muted
	KindFiller      Kind = "filler"       // TurnID, Text
	KindFailureLine Kind = "failure_line" // TurnID, Text
	KindErrorLine   Kind = "error_line"   // TurnID, Text, Where
	KindPill        Kind = "pill"         // Tool (nil: the tool segment is clear)
	KindReasoning   Kind = "reasoning"    // TurnID, Text, Streaming, Cut, Append, Delta
	KindUsage       Kind = "usage"        // TotalTokens, ContextWindow
	KindDelegations Kind = "delegations"  // Items, History
	KindTurnEnd     Kind = "turn_end"     // TurnID
	KindToolCall    Kind = "tool_call"    // CallID, TurnID, Name, Arguments
	KindToolResult  Kind = "tool_result"  // CallID, TurnID, Result
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

// Event is one thing the view shows or plays. Only the fields listed for
// its Kind are set.
type Event struct {
	Kind Kind
	At   time.Time

	TurnID string
	Text   string

	// socket
	State string // disconnected, connecting, ready, reconnecting, failed
	Code  int    // the wire's close code, -1 when none (logs and console only)
	// Unauthorized: the backend refused the key (push 4401, HTTP 401/403).
	Unauthorized bool
	DelayMS      int64  // reconnecting: the delay before the next attempt
	Err          string // why the socket left its state, when known
	// Cause is the error behind Err, for conncause.Explain (nil when none).
	Cause error

	Locked    bool              // composer
	Cue       cue.Cue           // cue: the applied (vocabulary-resolved) fields
	Muted     bool              // speech_start/speech_end: shown, not voiced
	Where     string            // error_line
	Tool      *ToolPill         // pill
	Streaming bool              // reasoning: more deltas may follow
	Cut       bool              // reasoning: the head of the text was dropped (ReasoningMax)
	Append    bool              // reasoning: Text is the text shown before plus Delta
	Delta     string            // reasoning: what Append added
	Items     []delegation.Item // delegations: what the chip shows now
	History   []delegation.Item // delegations: the persisted history, newest first

	TotalTokens   int64 // usage
	ContextWindow int   // usage: the preset's context window, 0 = unknown

	CallID    string          // tool_call/tool_result
	Name      string          // tool_call
	Arguments json.RawMessage // tool_call
	Result    string          // tool_result
}

// ToolPill is the status pill's tool segment.
type ToolPill struct {
	TurnID string `json:"turn_id"`
	ToolID string `json:"tool_id"`
	State  string `json:"state"` // running, done, failed
	// Phrase is the line shown beside the state for a turn the client
	// sent; empty for another turn's tool.
	Phrase string `json:"phrase,omitempty"`
}
