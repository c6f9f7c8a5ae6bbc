package view

// The app-wide menu a pet page shows beside its own items: the same
// actions as the tray's, so a desktop without a tray loses nothing.
// docs/view-protocol.md, "Desktop menu".
const (
	TypeDesktop       = "desktop"        // Desktop, core → pet page (sticky)
	TypeDesktopAction = "desktop_action" // DesktopAction, pet page → core
)

// Desktop is the state of the app-wide menu items.
type Desktop struct {
	// VoicesMuted: every character's sentences are shown, not voiced.
	VoicesMuted bool `json:"voices_muted"`
	// StartAtLogin is whether the OS starts Yui at login;
	// StartAtLoginAvailable false hides the item (no way to record it).
	StartAtLogin          bool `json:"start_at_login"`
	StartAtLoginAvailable bool `json:"start_at_login_available"`
}

// DesktopAction is a pet menu's app-wide action.
type DesktopAction struct {
	// Action is one of the DesktopAction* values.
	Action string `json:"action"`
}

// DesktopAction values.
const (
	DesktopHide            = "hide"              // hide the sending pet's character
	DesktopMute            = "mute"              // mute every character's voice
	DesktopUnmute          = "unmute"            // voice them again
	DesktopStartAtLoginOn  = "start_at_login_on" // start Yui at login
	DesktopStartAtLoginOff = "start_at_login_off"
	DesktopQuit            = "quit" // quit Yui: every window, then the core
)
