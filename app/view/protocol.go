package view

// The message types of the view protocol. docs/view-protocol.md describes
// each one; keep the two in step.

// Core → page (sticky topics; a page gets the latest of each on connect).
const (
	TypePreset      = "preset"      // PresetInfo
	TypePlate       = "plate"       // Plate
	TypeComposer    = "composer"    // Composer
	TypeErrorLine   = "error_line"  // ErrorLine
	TypeNotice      = "notice"      // Notice
	TypeCharacter   = "character"   // Character
	TypeBubble      = "bubble"      // Bubble
	TypePill        = "pill"        // Pill
	TypeReasoning   = "reasoning"   // Reasoning
	TypeUsage       = "usage"       // Usage
	TypeDelegations = "delegations" // Delegations
	TypePermission  = "permission"  // PermissionPrompt
)

// Page → core.
const (
	TypeSendText         = "send_text"         // SendText
	TypeStop             = "stop"              // no fields
	TypeReconnect        = "reconnect"         // no fields
	TypeDismiss          = "dismiss"           // Dismiss
	TypeReset            = "reset"             // no fields
	TypePermissionAnswer = "permission_answer" // PermissionAnswer
)

// Core → shell and shell → core.
const (
	TypeWindowConfig   = "window_config"   // WindowConfig, core → shell
	TypeWindowPosition = "window_position" // WindowPosition, shell → core
)

// PresetInfo tells the page which character it shows.
type PresetInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Look string `json:"look"`
}

// Plate is the message plate under the character. Kind is "connection"
// (not ready: Text says why), "thinking" or "" (hidden). Action, when set,
// names the action the plate offers ("reconnect").
type Plate struct {
	Kind   string `json:"kind"`
	Text   string `json:"text"`
	Action string `json:"action,omitempty"`
}

// Composer is the text composer's state.
type Composer struct {
	// Locked while a turn runs; the send button is then a stop button.
	Locked bool `json:"locked"`
}

// ErrorLine is the one-line error shown under the composer (Where
// "composer") or in the status pill (Where "pill"); empty Text hides it.
type ErrorLine struct {
	Text  string `json:"text"`
	Where string `json:"where"`
}

// Notice is a message for the user that is not part of a conversation,
// such as a settings file that could not be read. ID lets the page dismiss
// it; empty Text hides it.
type Notice struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// SendText is a line the user typed in the composer, with the images
// attached to it as data URLs (at most 6).
type SendText struct {
	Text   string   `json:"text"`
	Images []string `json:"images,omitempty"`
}

// Dismiss closes a notice.
type Dismiss struct {
	ID string `json:"id"`
}

// WindowConfig tells a window shell how to open its window. X and Y are nil
// when the window has no remembered position; the shell then picks one.
type WindowConfig struct {
	Title  string `json:"title"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	X      *int   `json:"x"`
	Y      *int   `json:"y"`
}

// WindowPosition reports where the user moved the window.
type WindowPosition struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Character is what the character shows: an emotion and a motion from the
// vocabulary the renderer declared (unknown ids fall back to neutral and
// idle on the page), and whether speech is playing (the mouth moves).
type Character struct {
	Emotion  string `json:"emotion"`
	Motion   string `json:"motion"`
	Speaking bool   `json:"speaking"`
}

// Bubble is the speech bubble. Each sentence replaces the text as it starts
// playing (Speaking true) and stays after it ends (Speaking false); the page
// hides the bubble a few seconds after the last sentence unless hovered.
// Kind is "speech", "filler" or "failure". Empty Text hides it. Seq grows
// with every bubble message so the page can tell a repeated sentence.
type Bubble struct {
	Seq      uint64 `json:"seq"`
	TurnID   string `json:"turn_id"`
	Kind     string `json:"kind"`
	Text     string `json:"text"`
	Speaking bool   `json:"speaking"`
	Muted    bool   `json:"muted"`
}

// PillTool is the status pill's tool segment.
type PillTool struct {
	ToolID string `json:"tool_id"`
	State  string `json:"state"` // running, done, failed
	// Label is a short human name for the tool; Phrase the line for a turn
	// the client sent (empty for another turn's tool).
	Label  string `json:"label"`
	Phrase string `json:"phrase,omitempty"`
}

// Pill is the status pill: its tool segment (nil when clear) and the error
// line of a spoken turn ("" when none). The page hides the pill when both
// are empty.
type Pill struct {
	Tool  *PillTool `json:"tool"`
	Error string    `json:"error"`
	// Capture is true while a screenshot goes with every turn.
	Capture bool `json:"capture"`
}

// Reasoning is the reasoning display of one turn; empty Text hides it.
type Reasoning struct {
	TurnID    string `json:"turn_id"`
	Text      string `json:"text"`
	Streaming bool   `json:"streaming"`
}

// Usage is the token readout: the last call's total tokens beside the
// preset's context window (0 = unknown).
type Usage struct {
	TotalTokens   int64 `json:"total_tokens"`
	ContextWindow int   `json:"context_window"`
}

// DelegationItem is one item of the delegations list, as the push spec's
// delegations frame carries it.
type DelegationItem struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	StartedAt int64  `json:"started_at"`
	State     string `json:"state"`
	EndedAt   int64  `json:"ended_at,omitempty"`
	Status    string `json:"status,omitempty"`
	Summary   string `json:"summary,omitempty"`
}

// Delegations is the chip's list: what is visible now (done items leave 30
// minutes after they ended; the core re-publishes when one leaves).
type Delegations struct {
	Items []DelegationItem `json:"items"`
}

// PermissionPrompt asks the user whether the backend may see a monitor
// (issue 6). ID 0 hides the prompt. Text is a one-line wording.
type PermissionPrompt struct {
	ID      uint64 `json:"id"`
	Backend string `json:"backend"`
	Monitor int    `json:"monitor"`
	Label   string `json:"label"`
	Text    string `json:"text"`
}

// PermissionAnswer answers a prompt: "once", "always" or "deny".
type PermissionAnswer struct {
	ID     uint64 `json:"id"`
	Answer string `json:"answer"`
}
