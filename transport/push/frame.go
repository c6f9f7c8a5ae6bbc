package push

import (
	"encoding/json"
	"log/slog"

	"yui/transport"
)

// Frame type names, as they appear in the type field.
const (
	TypeHello       = "hello"
	TypeVocabulary  = "vocabulary"
	TypeTurn        = "turn"
	TypeReset       = "reset"
	TypeStop        = "stop"
	TypePlayback    = "playback"
	TypeToolResult  = "tool_result"
	TypeReady       = "ready"
	TypeRender      = "render"
	TypeSpeech      = "speech"
	TypeTurnEnd     = "turn_end"
	TypeError       = "error"
	TypeToolStatus  = "tool_status"
	TypeToolCall    = "tool_call"
	TypeReasoning   = "reasoning"
	TypeDelegations = "delegations"
)

// Frame is one typed frame of either direction.
type Frame interface {
	// FrameType returns the frame's type field.
	FrameType() string
}

// The value types frames carry live in package transport.
type (
	Cue            = transport.Cue
	Segment        = transport.Segment
	Vocabulary     = transport.Vocabulary
	ToolSchema     = transport.ToolSchema
	FunctionSchema = transport.FunctionSchema
	Usage          = transport.Usage
	Delegation     = transport.Delegation
)

// ---- client → backend ----

// Hello is the client's first frame. Its LogValue never includes the key.
type Hello struct {
	Key        string
	ChatID     string
	Accepts    []string // nil: field absent (base set only)
	Vocabulary Vocabulary
	Tools      []ToolSchema // nil: field absent
}

// LogValue keeps the key out of every log line.
func (h Hello) LogValue() slog.Value {
	return slog.GroupValue(slog.String("chat_id", h.ChatID), slog.Any("accepts", h.Accepts), slog.Int("tools", len(h.Tools)))
}

// VocabularyFrame re-sends the vocabulary while connected.
type VocabularyFrame struct{ Vocabulary Vocabulary }

// Turn is one user or client-started turn.
type Turn struct {
	TurnID        string
	ClientContext string
	Text          string
	Images        []string // data URLs; sent only when the backend stated max_turn_bytes
}

// Reset starts a new conversation under the same chat_id.
type Reset struct{}

// Stop names the turns the user just stopped.
type Stop struct{ TurnIDs []string }

// Playback reports a saved failed record.
type Playback struct {
	TurnID string
	Ended  string // "failed"
}

// ToolResult answers a tool_call.
type ToolResult struct {
	ID     string
	TurnID string
	Result string
	Images []string // omitted when empty
}

// ---- backend → client ----

// Ready answers hello. MaxTurnBytes is 0 when the backend stated none.
type Ready struct {
	ChatID       string
	MaxTurnBytes int
}

// Render is a finished reply (or part of one) for a turn.
type Render struct {
	TurnID    string
	Source    string
	Segments  []Segment
	Reasoning string
}

// Speech is one finished sentence of a reply still being written.
type Speech struct {
	TurnID   string
	Segments []Segment
}

// TurnEnd closes a turn. Usage is nil when absent or unreadable.
type TurnEnd struct {
	TurnID string
	Usage  *Usage
}

// ErrorFrame is the backend's failure text for a turn.
type ErrorFrame struct {
	TurnID  string
	Message string
}

// ToolStatus reports a backend tool's state change.
type ToolStatus struct {
	TurnID string
	State  string // "running", "done", "failed"
	ToolID string
}

// ToolCall asks the client to run a tool it declared. Arguments is always a
// JSON object ("{}" when the frame carried none).
type ToolCall struct {
	ID        string
	TurnID    string
	Name      string
	Arguments json.RawMessage
}

// Reasoning is a coalesced delta of the backend's reasoning.
type Reasoning struct {
	TurnID string
	Delta  string
}

// Delegations is the backend's full delegation list.
type Delegations struct{ Items []Delegation }

func (Hello) FrameType() string           { return TypeHello }
func (VocabularyFrame) FrameType() string { return TypeVocabulary }
func (Turn) FrameType() string            { return TypeTurn }
func (Reset) FrameType() string           { return TypeReset }
func (Stop) FrameType() string            { return TypeStop }
func (Playback) FrameType() string        { return TypePlayback }
func (ToolResult) FrameType() string      { return TypeToolResult }
func (Ready) FrameType() string           { return TypeReady }
func (Render) FrameType() string          { return TypeRender }
func (Speech) FrameType() string          { return TypeSpeech }
func (TurnEnd) FrameType() string         { return TypeTurnEnd }
func (ErrorFrame) FrameType() string      { return TypeError }
func (ToolStatus) FrameType() string      { return TypeToolStatus }
func (ToolCall) FrameType() string        { return TypeToolCall }
func (Reasoning) FrameType() string       { return TypeReasoning }
func (Delegations) FrameType() string     { return TypeDelegations }

// TurnIDOf returns the turn_id a backend frame carries, or "" for frames
// that carry none (ready, delegations) and for client frames.
func TurnIDOf(f Frame) string {
	switch f := f.(type) {
	case Render:
		return f.TurnID
	case Speech:
		return f.TurnID
	case TurnEnd:
		return f.TurnID
	case ErrorFrame:
		return f.TurnID
	case ToolStatus:
		return f.TurnID
	case ToolCall:
		return f.TurnID
	case Reasoning:
		return f.TurnID
	}
	return ""
}
