package settings

import "yui/app/hotkey"

// Settings is the whole settings file.
type Settings struct {
	// Version is the file format version; this build writes 1.
	Version int `json:"version"`
	// ActivePreset is the id of the preset whose pet window is main.
	ActivePreset string `json:"active_preset"`
	// Presets are the characters, in the order the user arranged them.
	Presets []Preset `json:"presets"`
	// Audio is the sound settings every character shares.
	Audio Audio `json:"audio"`
	// Listen is how Yui hears the user (microphone, transcription).
	Listen Listen `json:"listen"`
	// Keyboard is the global shortcut.
	Keyboard Keyboard `json:"keyboard"`
	// Proactive is when a character speaks first (proactive.go).
	Proactive Proactive `json:"proactive,omitzero"`
	// Talk is how characters talk among themselves (among.go).
	Talk Talk `json:"talk,omitzero"`
	// Language is the UI language ("" follows the system; language.go).
	Language string `json:"language,omitempty"`
}

// Keyboard is the global shortcut that opens the main character's
// composer from any app (docs/desktop.md, "Global shortcut").
type Keyboard struct {
	// Shortcut is the combination ("Ctrl+Alt+Y"); "" is the default,
	// hotkey.Default.
	Shortcut string `json:"shortcut,omitempty"`
	// ShortcutOff switches the global shortcut off.
	ShortcutOff bool `json:"shortcut_off,omitempty"`
}

// ShortcutOrDefault is the combination in force (Shortcut, or the
// default when empty).
func (k Keyboard) ShortcutOrDefault() string {
	if k.Shortcut == "" {
		return hotkey.Default
	}
	return k.Shortcut
}

// Preset is one character and its backend settings (client-notes §1).
type Preset struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
	// Look names the character art the pet window draws.
	Look string `json:"look"`
	// LookOptions are her options for a VRM look (lookoptions.go).
	LookOptions LookOptions `json:"look_options,omitzero"`
	// ChatAPI is one of ChatAPIs.
	ChatAPI     string `json:"chat_api"`
	ChatBaseURL string `json:"chat_base_url"`
	// Key is the chat API key. It is never logged.
	Key string `json:"key"`
	// ChatID is generated once per preset ("yui-" + 8 hex digits) and kept.
	ChatID          string `json:"chat_id"`
	Model           string `json:"model"`
	ReasoningEffort string `json:"reasoning_effort"`
	// Card is the persona text sent by the request transports.
	Card string `json:"card"`
	// ContextWindow is the model's context size in tokens, shown beside the
	// usage readout; 0 means unknown.
	ContextWindow int `json:"context_window"`
	// AgentID is the Standard Agents agent a new thread is made for
	// (chat_api standard_agents).
	AgentID string `json:"agent_id,omitempty"`
	// ThreadID is the Standard Agents thread the character follows; ""
	// makes a new one on the next connect (and keeps its id here).
	ThreadID    string      `json:"thread_id,omitempty"`
	Permissions Permissions `json:"permissions"`
	// Voice is how the character speaks.
	Voice Voice `json:"voice"`
	// MCPServers and MCPGrants are her MCP tools on a request wire and
	// the user's saved answers to their prompts (mcp.go, docs/mcp.md).
	MCPServers []MCPServer `json:"mcp_servers,omitempty"`
	MCPGrants  MCPGrants   `json:"mcp_grants,omitempty"`
	// Window is where the pet window was last placed; nil until it moved.
	Window *Position `json:"window,omitempty"`
	// Quiet is this character's quiet companion switch: she never speaks
	// first (Proactive.Quiet overrides it for everyone).
	Quiet bool `json:"quiet,omitempty"`
	// SpeechLanguage overrides Settings.Language for her spoken lines
	// ("" speaks the UI language; language.go).
	SpeechLanguage string `json:"speech_language,omitempty"`
}

// Permissions are what the user allowed this preset's character to do.
type Permissions struct {
	// Screen is "ask", "allow" or "deny".
	Screen string `json:"screen"`
	// ScreenshotEachTurn sends a screenshot with every turn.
	ScreenshotEachTurn bool `json:"screenshot_each_turn"`
	// HideFrontmost leaves the frontmost app out of client_context (the
	// settings form's "Tell the agent which app I'm using", unticked).
	// False, the default and the value of a file without the field,
	// tells it.
	HideFrontmost bool `json:"hide_frontmost,omitempty"`
	// LocalPages lets the browser tool read pages on this computer and
	// the local network (loopback, private, link-local addresses).
	LocalPages bool `json:"local_pages,omitempty"`
	// BrowserSites are the sites the user allowed the browser tool to
	// open always (among.go).
	BrowserSites []string `json:"browser_sites,omitempty"`
}

// Position is a window's top-left corner in absolute screen pixels.
type Position struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// ChatAPIs are the accepted values of Preset.ChatAPI.
var ChatAPIs = []string{"push", "responses", "chat_completions", "standard_agents"}

// ReasoningEfforts are the accepted values of Preset.ReasoningEffort.
var ReasoningEfforts = []string{"", "minimal", "low", "medium", "high"}

// ScreenModes are the accepted values of Permissions.Screen.
var ScreenModes = []string{"ask", "allow", "deny"}

// Preset returns the preset with the given id.
func (s *Settings) Preset(id string) (Preset, bool) {
	for _, p := range s.Presets {
		if p.ID == id {
			return p, true
		}
	}
	return Preset{}, false
}
