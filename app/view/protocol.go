package view

import "yui/app/phrase"

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
	TypeVoice       = "voice"       // VoiceState
)

// Core → pet page, not sticky: lip-sync levels come and go with the sound.
const (
	TypeMouth = "mouth" // Mouth
)

// Page → core.
const (
	TypeSendText         = "send_text"         // SendText
	TypeStop             = "stop"              // no fields
	TypeReconnect        = "reconnect"         // no fields
	TypeDismiss          = "dismiss"           // Dismiss
	TypeReset            = "reset"             // no fields
	TypePermissionAnswer = "permission_answer" // PermissionAnswer
	TypeMute             = "mute"              // Mute
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
	// Cause names why the connection failed in plain words
	// (app/conncause), under the text; "" when unknown.
	Cause string `json:"cause,omitempty"`
	// Settings: the fix is in Settings → Backend; the page offers a button
	// that opens it there.
	Settings bool `json:"settings,omitempty"`
	// Msg and CauseMsg are Text and Cause as phrases the page words in
	// its language (app/phrase); Text and Cause are their English.
	Msg      *phrase.Phrase `json:"msg,omitempty"`
	CauseMsg *phrase.Phrase `json:"cause_msg,omitempty"`
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
	// Msg is Text as a phrase the page words in its language.
	Msg *phrase.Phrase `json:"msg,omitempty"`
}

// NoticeOf is notice id saying m (its English as Text).
func NoticeOf(id string, m phrase.Phrase) Notice {
	return Notice{ID: id, Text: m.English(), Msg: m.Ptr()}
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
	// Kind is WindowPet (frameless, transparent, always on top, out of
	// the task bar) or WindowSettings (an ordinary resizable window that
	// hides when closed).
	Kind   string `json:"kind"`
	Title  string `json:"title"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	X      *int   `json:"x"`
	Y      *int   `json:"y"`
	// MinWidth and MinHeight bound a resizable window (0: no bound).
	MinWidth  int `json:"min_width,omitempty"`
	MinHeight int `json:"min_height,omitempty"`
	// PageToken admits the window's page, and only it: role pet for the
	// shell's preset, or role settings. The shell hands it to its page;
	// its own token (YUI_CORE_TOKEN) never reaches the page.
	PageToken string `json:"page_token"`
}

// Window kinds of WindowConfig.
const (
	WindowPet      = "pet"
	WindowSettings = "settings"
)

// WindowPosition reports where the user moved the window.
type WindowPosition struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Character is what the character shows: an emotion and a motion from the
// vocabulary the renderer declared (unknown ids fall back to neutral and
// idle on the page), and whether speech is playing (the mouth moves).
// Voiced says the speech is heard: the mouth then follows the mouth
// messages' levels (and stays closed while none arrive); otherwise it
// flaps at a fixed pace (text only, muted, no sound server).
type Character struct {
	Emotion  string `json:"emotion"`
	Motion   string `json:"motion"`
	Speaking bool   `json:"speaking"`
	Voiced   bool   `json:"voiced"`
}

// Mouth is lip-sync for the pet page: Levels[i] (0–100, the loudness of a
// 20 ms window relative to the sentence's loudest) is heard from At +
// i×StepMS, At in epoch milliseconds. Empty Levels means the sound
// stopped: the mouth closes at At and earlier levels still pending are
// dropped.
type Mouth struct {
	At     int64 `json:"at"`
	StepMS int   `json:"step_ms"`
	Levels []int `json:"levels"`
	// Tones[i] (0–100), when sent, is how bright window i sounds (a
	// three-band split of its spectrum, app/audio Tones): the VRM look
	// picks the mouth's vowel shape from it (docs/looks.md).
	Tones []int `json:"tones,omitempty"`
}

// VoiceState is the pet page's view of the character's voice, for its
// menu: the character's own mute, the global mute, and whether the
// character has a voice at all (engine "off": text only).
type VoiceState struct {
	Muted       bool   `json:"muted"`
	GlobalMuted bool   `json:"global_muted"`
	Engine      string `json:"engine"`
}

// Mute is a mute switch from the pet page's menu: Scope "character" (this
// character) or "all" (every character).
type Mute struct {
	Scope string `json:"scope"`
	Muted bool   `json:"muted"`
}

// Mute scopes.
const (
	MuteCharacter = "character"
	MuteAll       = "all"
)

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
	// Voice is a short voice error ("voice: check the speech key"): a
	// sentence could not be synthesised and was shown without sound.
	// Cleared by the next turn.
	Voice string `json:"voice,omitempty"`
}

// Reasoning is the reasoning display of one turn; empty Text hides it.
// With Append set, Text is added to the end of what the page shows for
// TurnID (the core sends deltas live; the sticky replay is the whole
// text). Cut says the head of the text was dropped (the core keeps the
// newest 64 KiB of a turn's reasoning); the page marks the start.
type Reasoning struct {
	TurnID    string `json:"turn_id"`
	Text      string `json:"text"`
	Streaming bool   `json:"streaming"`
	Append    bool   `json:"append,omitempty"`
	Cut       bool   `json:"cut,omitempty"`
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
	// Tool, when set, makes it a tool's prompt (an MCP tool's first
	// call: "read of the MCP server files"), not the screen's.
	Tool string `json:"tool,omitempty"`
	// Site is the web site a browser open asks for; absent for the
	// screen (the prompt then asks to see Monitor).
	Site string `json:"site,omitempty"`
}

// PermissionAnswer answers a prompt: "once", "always" or "deny".
type PermissionAnswer struct {
	ID     uint64 `json:"id"`
	Answer string `json:"answer"`
}
