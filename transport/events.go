package transport

// Event is one thing the backend said about a turn or the conversation:
// Render, Speech, TurnEnd, TurnError, ToolStatus, Reasoning or Delegations.
type Event interface{ isEvent() }

// Cue is a generate_express argument object; every field is optional.
type Cue struct {
	EmotionID   string `json:"emotion_id,omitempty"`
	MotionID    string `json:"motion_id,omitempty"`
	EmotionText string `json:"emotion_text,omitempty"`
	Caption     string `json:"caption,omitempty"`
}

// IsZero reports a cue with no field set.
func (c Cue) IsZero() bool { return c == Cue{} }

// Segment is one render or speech segment: its cues render first, then its
// speech goes to TTS and the bubble.
type Segment struct {
	Cues   []Cue  `json:"cues,omitempty"`
	Speech string `json:"speech"`
}

// Usage is the token usage of a turn's last model call.
type Usage struct {
	InputTokens  float64 `json:"input_tokens"`
	OutputTokens float64 `json:"output_tokens"`
	TotalTokens  float64 `json:"total_tokens"`
}

// Delegation is one item of the backend's delegation list.
type Delegation struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	StartedAt int64  `json:"started_at"`
	State     string `json:"state"` // "running" or "done"
	EndedAt   int64  `json:"ended_at,omitempty"`
	Status    string `json:"status,omitempty"` // "ok", "error", "unknown" on done items
	Summary   string `json:"summary,omitempty"`
}

// Render is a finished reply (or the rest of one) for a turn; it closes the
// turn's open utterance.
type Render struct {
	TurnID    string
	Source    string
	Segments  []Segment
	Reasoning string // the whole reasoning so far; "" when none
}

// Speech is one finished sentence of a reply still being written; it
// opens (or continues) the turn's utterance.
type Speech struct {
	TurnID   string
	Segments []Segment
}

// TurnEnd closes a turn. Usage is nil when the wire has none.
type TurnEnd struct {
	TurnID string
	Usage  *Usage
}

// TurnError is the failure text of a turn, before its TurnEnd. An empty
// Message means the generic text.
type TurnError struct {
	TurnID  string
	Message string
}

// ToolStatus reports a backend tool's state change: "running", "done" or
// "failed".
type ToolStatus struct {
	TurnID string
	State  string
	ToolID string
}

// Reasoning is a delta of the reasoning written for a turn.
type Reasoning struct {
	TurnID string
	Delta  string
}

// Delegations is the backend's full delegation list.
type Delegations struct{ Items []Delegation }

func (Render) isEvent()      {}
func (Speech) isEvent()      {}
func (TurnEnd) isEvent()     {}
func (TurnError) isEvent()   {}
func (ToolStatus) isEvent()  {}
func (Reasoning) isEvent()   {}
func (Delegations) isEvent() {}
