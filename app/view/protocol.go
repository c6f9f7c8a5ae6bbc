package view

// The message types of the view protocol. docs/view-protocol.md describes
// each one; keep the two in step.

// Core → page (sticky topics; a page gets the latest of each on connect).
const (
	TypePreset    = "preset"     // PresetInfo
	TypePlate     = "plate"      // Plate
	TypeComposer  = "composer"   // Composer
	TypeErrorLine = "error_line" // ErrorLine
	TypeNotice    = "notice"     // Notice
)

// Page → core.
const (
	TypeSendText  = "send_text" // SendText
	TypeStop      = "stop"      // no fields
	TypeReconnect = "reconnect" // no fields
	TypeDismiss   = "dismiss"   // Dismiss
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

// SendText is a line the user typed in the composer.
type SendText struct {
	Text string `json:"text"`
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
