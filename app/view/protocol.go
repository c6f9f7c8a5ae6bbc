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

// The settings window (role "settings", no preset) and the pet page's way
// to open it. docs/view-protocol.md, "Settings window".
const (
	TypeSettingsState   = "settings_state"   // SettingsState, core → settings page (sticky)
	TypeSettingsFocus   = "settings_focus"   // SettingsFocus, core → settings page (sticky)
	TypeSettingsStatus  = "settings_status"  // SettingsStatus, core → settings page (sticky)
	TypeSettingsResult  = "settings_result"  // SettingsResult, core → settings page
	TypeSettingsHistory = "settings_history" // SettingsHistory, core → settings page (sticky)
	TypeSettingsAudio   = "settings_audio"   // SettingsAudio, core → settings page (sticky)
	TypeSaveSettings    = "save_settings"    // SaveSettings, settings page → core
	TypeOpenSettings    = "open_settings"    // OpenSettings, pet page → core
	TypePresetAction    = "preset_action"    // PresetAction, settings page → core
	TypeShowWindow      = "show_window"      // ShowWindow, pet page → core
	TypeTestConnection  = "test_connection"  // TestConnection, settings page → core
	TypeConnectionTest  = "connection_test"  // ConnectionTest, core → settings page
	TypeWindowShow      = "window_show"      // no fields, core → shell
	TypeWindowHidden    = "window_hidden"    // no fields, settings shell → core: the user closed (hid) it
	TypeWindowQuit      = "window_quit"      // no fields, core → settings shell: end the process
	TypeWindowTitle     = "window_title"     // WindowTitle, core → shell (a character renamed)
)

// Sections of the settings form that OpenSettings and SettingsFocus name.
const (
	SectionCharacter   = "character"
	SectionBackend     = "backend"
	SectionPermissions = "permissions"
	SectionSession     = "session"
	SectionVoice       = "voice"
)

// PresetFields are the preset fields the settings form edits, shared by
// what the page is shown (PresetForm) and what it saves (SavePreset).
type PresetFields struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	Enabled         bool   `json:"enabled"`
	Look            string `json:"look"`
	ChatAPI         string `json:"chat_api"`
	ChatBaseURL     string `json:"chat_base_url"`
	Model           string `json:"model"`
	ReasoningEffort string `json:"reasoning_effort"`
	Card            string `json:"card"`
	ContextWindow   int    `json:"context_window"`
	// AgentID and ThreadID are the Standard Agents agent and thread
	// (chat_api standard_agents); ThreadID "" makes a new thread.
	AgentID     string          `json:"agent_id"`
	ThreadID    string          `json:"thread_id"`
	Permissions PermissionsForm `json:"permissions"`
	// Voice is always set in a PresetForm; in a SavePreset nil keeps the
	// saved voice.
	Voice *VoiceForm `json:"voice,omitempty"`
	// SpeechLanguage is the language of her spoken lines ("" the UI
	// language; settings.Preset.SpeechLanguage). Always set in a
	// PresetForm; in a SavePreset nil keeps the saved one.
	SpeechLanguage *string `json:"speech_language,omitempty"`
}

// VoiceForm mirrors settings.Voice without the key (PresetForm.HasVoiceKey,
// SavePreset.VoiceKey). Volume is 0–100.
type VoiceForm struct {
	Engine         string            `json:"engine"`
	Program        string            `json:"program"`
	SystemVoice    string            `json:"system_voice"`
	Rate           int               `json:"rate"`
	BaseURL        string            `json:"base_url"`
	Model          string            `json:"model"`
	EndpointVoice  string            `json:"endpoint_voice"`
	Format         string            `json:"format"`
	EmotionTextMap map[string]string `json:"emotion_text_map"`
	Volume         int               `json:"volume"`
	Muted          bool              `json:"muted"`
}

// AudioForm mirrors settings.Audio: the global mute and the output device
// ("" = the default device).
type AudioForm struct {
	Muted  bool   `json:"muted"`
	Device string `json:"device"`
}

// KeyboardForm is the global shortcut as the settings form edits it.
// Note (core → page only) says why the shortcut does not work ("" when
// it does or is off).
type KeyboardForm struct {
	Shortcut    string `json:"shortcut"`
	ShortcutOff bool   `json:"shortcut_off"`
	Note        string `json:"note,omitempty"`
}

// PresetForm is one preset as the settings form shows it. The key never
// leaves the core: the page learns only whether one is saved (HasKey) and
// sends Key only when the user typed a new one.
type PresetForm struct {
	PresetFields
	HasKey      bool   `json:"has_key"`
	HasVoiceKey bool   `json:"has_voice_key"`
	ChatID      string `json:"chat_id"`
	// LookOptions are her VRM look options (changed with look_options).
	LookOptions CharacterLookOptions `json:"look_options"`
	// KeyNote, when set, says why the key field is empty: a save moved
	// the preset to another backend and dropped its key. It stays until a
	// key is saved for the preset.
	KeyNote string `json:"key_note,omitempty"`
	// ScreenNote, when set, says the last save took back the standing
	// screen permissions because the backend changed.
	ScreenNote string `json:"screen_note,omitempty"`
	// KeyNoteMsg and ScreenNoteMsg are the notes as phrases.
	KeyNoteMsg    *phrase.Phrase `json:"key_note_msg,omitempty"`
	ScreenNoteMsg *phrase.Phrase `json:"screen_note_msg,omitempty"`
	// Standings are how she feels about the user and the others
	// (rate_relation), the user first; none yet: absent.
	Standings []Standing `json:"standings,omitempty"`
}

// PermissionsForm mirrors settings.Permissions.
type PermissionsForm struct {
	Screen             string `json:"screen"`
	ScreenshotEachTurn bool   `json:"screenshot_each_turn"`
	// HideFrontmost is "Tell the agent which app I'm using" unticked;
	// absent (false) tells it.
	HideFrontmost bool `json:"hide_frontmost"`
	// LocalPages is "May read pages on this computer and local network"
	// (the browser tool).
	LocalPages bool `json:"local_pages"`
	// BrowserSites are the sites the browser may open without asking
	// (shown; the form sends them back to keep them, or fewer to forget).
	BrowserSites []string `json:"browser_sites,omitempty"`
}

// Choice is one option of a select or radio group. Available false shows
// it greyed out with Note saying why.
type Choice struct {
	ID        string `json:"id"`
	Label     string `json:"label"`
	Available bool   `json:"available"`
	Note      string `json:"note,omitempty"`
}

// SettingsChoices are the options the form offers.
type SettingsChoices struct {
	ChatAPIs         []Choice `json:"chat_apis"`
	ReasoningEfforts []Choice `json:"reasoning_efforts"`
	ScreenModes      []Choice `json:"screen_modes"`
	Looks            []Choice `json:"looks"`
	VoiceEngines     []Choice `json:"voice_engines"`
	VoicePrograms    []Choice `json:"voice_programs"`
	VoiceFormats     []Choice `json:"voice_formats"`
	// SystemVoices lists each installed program's voices (program →
	// voices), for suggestions; a name typed by hand is accepted too.
	SystemVoices map[string][]Choice `json:"system_voices"`
	// VRMLooks are the usable VRM look folders' thumbnails and options
	// (each is also in Looks).
	VRMLooks []VRMLookChoice `json:"vrm_looks,omitempty"`
}

// SettingsState is the saved settings as the form shows them. Revision
// grows with every change (a save from the form, a permission answered
// "Always", a window moved does not count).
type SettingsState struct {
	Revision     uint64       `json:"revision"`
	Path         string       `json:"path"`
	ActivePreset string       `json:"active_preset"`
	Presets      []PresetForm `json:"presets"`
	Audio        AudioForm    `json:"audio"`
	Keyboard     KeyboardForm `json:"keyboard"`
	// Talk is how characters talk among themselves, for every character.
	Talk    TalkState       `json:"talk"`
	Choices SettingsChoices `json:"choices"`
	// Language is the saved UI language ("" follows the system locale;
	// settings.Settings.Language).
	Language string `json:"language"`
	// UILanguage is the UI language in force (Language, or the system
	// locale's match): the settings page switches to it in place.
	UILanguage string `json:"ui_language"`
	// NewPreset is the backend Add character starts a new character on
	// (the core's choice: the main character's).
	NewPreset NewPresetForm `json:"new_preset"`
}

// NewPresetForm is the backend a character added in the settings window
// starts with: the main character's API, base URL, model, effort, context
// window and agent (a new thread, no card, the default voice and screen
// access come from the page). KeyFrom names the saved preset whose key
// the new one takes when it is saved on that backend (SavePreset.KeyFrom);
// "" when there is no key to take.
type NewPresetForm struct {
	ChatAPI         string `json:"chat_api"`
	ChatBaseURL     string `json:"chat_base_url"`
	Model           string `json:"model"`
	ReasoningEffort string `json:"reasoning_effort"`
	ContextWindow   int    `json:"context_window"`
	AgentID         string `json:"agent_id"`
	KeyFrom         string `json:"key_from"`
}

// SettingsAudio is the sound output as the core found it: Server names the
// sound server ("PulseAudio 16.1"; "" when there is none), Note says in
// one line what that means when something is wrong ("" otherwise), and
// Devices lists the output devices (the default one first, Available
// false for a saved device that is not there now).
type SettingsAudio struct {
	Server string `json:"server"`
	Note   string `json:"note"`
	// NoteMsg is Note as a phrase.
	NoteMsg *phrase.Phrase `json:"note_msg,omitempty"`
	Devices []Choice       `json:"devices"`
}

// SettingsFocus asks the page to show a preset and scroll to a section
// ("" = the top). Seq grows with every request, so the page can tell a
// new request from the replayed one.
type SettingsFocus struct {
	Seq     uint64 `json:"seq"`
	Preset  string `json:"preset"`
	Section string `json:"section"`
}

// PresetStatus is one enabled preset's connection as its pet window shows
// it. State is the socket state (disconnected, connecting, ready,
// reconnecting, failed, closed); Text the words for it.
type PresetStatus struct {
	ID    string `json:"id"`
	State string `json:"state"`
	Text  string `json:"text"`
	// Msg is Text as a phrase the page words in its language.
	Msg *phrase.Phrase `json:"msg,omitempty"`
	// Problem names what keeps a Standard Agents character from its
	// thread: "thread_deleted" (the form offers a new thread) or
	// "agent_unknown"; "" when nothing.
	Problem string `json:"problem,omitempty"`
}

// Problems of PresetStatus.
const (
	ProblemThreadDeleted = "thread_deleted"
	ProblemAgentUnknown  = "agent_unknown"
)

// SettingsStatus lists the running presets' connections.
type SettingsStatus struct {
	Presets []PresetStatus `json:"presets"`
}

// SavePreset is one preset in a save request: the editable fields, and
// Key only when the user typed a new one (nil keeps the saved
// key; "" removes it). An ID the settings do not have adds a preset (the
// page makes ids: "p-" + 8 lowercase hex digits); the core gives it a
// chat_id.
type SavePreset struct {
	PresetFields
	Key *string `json:"key,omitempty"`
	// VoiceKey is the speech endpoint's key, like Key: nil keeps the
	// saved one, "" removes it.
	VoiceKey *string `json:"voice_key,omitempty"`
	// KeyFrom, for a preset the settings do not have yet and no Key:
	// take the saved key of that preset (NewPresetForm.KeyFrom) — only
	// when this preset's base URL has that preset's origin (a key goes
	// only to its backend); otherwise it is ignored.
	KeyFrom string `json:"key_from,omitempty"`
}

// SaveSettings replaces the presets with the form's list, in its order;
// a saved preset missing from it is removed (its history stays on disk).
type SaveSettings struct {
	RequestID    string       `json:"request_id"`
	ActivePreset string       `json:"active_preset"`
	Presets      []SavePreset `json:"presets"`
	// Audio replaces the shared sound settings; nil keeps them.
	Audio *AudioForm `json:"audio,omitempty"`
	// Keyboard replaces the global shortcut; nil keeps it.
	Keyboard *KeyboardForm `json:"keyboard,omitempty"`
	// Listen replaces the Listening section (one for every character;
	// its Target and HasKey are not read from it); nil keeps it. It is
	// saved with the rest, by the form's one Save (issue 21: it had its
	// own "Save listening"). ListenKey is the transcription key, like
	// Key: nil keeps the saved one, "" removes it.
	Listen    *ListenForm `json:"listen,omitempty"`
	ListenKey *string     `json:"listen_key,omitempty"`
	// Proactive replaces the "Speaking first" section; nil keeps it.
	Proactive *ProactiveForm `json:"proactive,omitempty"`
	// Language replaces the UI language ("" follows the system); nil
	// keeps it.
	Language *string `json:"language,omitempty"`
	// Talk replaces the manners of characters talking among themselves
	// (settings.Talk; 0 is the default); nil keeps them.
	Talk *TalkForm `json:"talk,omitempty"`
}

// TalkForm is settings.Talk as the settings form edits it: a chain of
// characters addressing each other ends after MaxHops hops, and at most
// PerMinute hops start in a minute (0: the default).
type TalkForm struct {
	MaxHops   int `json:"max_hops"`
	PerMinute int `json:"per_minute"`
}

// TalkState is the manners in force for the settings form (the saved
// value, or the default for 0) and the bounds settings.Validate keeps
// them in (1 to HopsLimit, 1 to PerMinuteLimit).
type TalkState struct {
	TalkForm
	HopsLimit      int `json:"hops_limit"`
	PerMinuteLimit int `json:"per_minute_limit"`
}

// SettingsResult answers a SaveSettings. On refusal Field is the JSON path
// of the wrong field in the request ("presets[1].chat_base_url",
// "active_preset") and Error says why; nothing was changed.
type SettingsResult struct {
	RequestID string `json:"request_id"`
	OK        bool   `json:"ok"`
	Field     string `json:"field,omitempty"`
	Error     string `json:"error,omitempty"`
	// Suggestion is a value the refused field probably meant (a URL
	// without a scheme); the settings window offers it.
	Suggestion string `json:"suggestion,omitempty"`
}

// OpenSettings opens (or raises) the settings window on the sender's
// preset, at Section ("" = the top).
type OpenSettings struct {
	Section string `json:"section,omitempty"`
}

// PresetHistory is one preset's delegation history, newest first (at most
// 200 items; push spec, Delegations).
type PresetHistory struct {
	ID    string           `json:"id"`
	Items []DelegationItem `json:"items"`
}

// SettingsHistory is every preset's delegation history, for the settings
// window's Session section.
type SettingsHistory struct {
	Presets []PresetHistory `json:"presets"`
}

// ShowWindow asks the core to bring a character's pet window back (the
// pet menu's "Show"): one the supervisor gave up on starts again, a
// running one is raised. Preset "" is the sender's own.
type ShowWindow struct {
	Preset string `json:"preset,omitempty"`
}

// PresetAction asks a preset's pet window to act on its connection, from
// the settings window: Action "reconnect" (a fresh attempt now), "reset"
// (a new conversation: the stop button, then the spec's reset frame; on a
// Standard Agents character a new thread, which is how a deleted thread
// is replaced) or "show" (bring its window back: Core.ShowPet).
type PresetAction struct {
	Preset string `json:"preset"`
	Action string `json:"action"`
}

// TestConnection asks the core to try a backend as the form has it (not
// yet saved): GET {base}/models for the request APIs, a hello for push.
// Key is a key typed in the form; without one the saved key of the preset
// is used only when the base URL is the saved one (a key goes only to the
// backend it was entered for).
type TestConnection struct {
	RequestID   string  `json:"request_id"`
	Preset      string  `json:"preset"`
	ChatAPI     string  `json:"chat_api"`
	ChatBaseURL string  `json:"chat_base_url"`
	Key         *string `json:"key,omitempty"`
	// AgentID and ThreadID are checked on a Standard Agents runtime
	// (GET /api/auth/me, /api/agents, /api/threads/<id>).
	AgentID  string `json:"agent_id,omitempty"`
	ThreadID string `json:"thread_id,omitempty"`
	// KeyFrom: a new character without a typed key is tested with that
	// saved preset's key, only on its origin (SavePreset.KeyFrom).
	KeyFrom string `json:"key_from,omitempty"`
}

// ConnectionTest answers a TestConnection. Kind is "ok" (Models lists what
// the server offers, maybe none), "refused" (the key), "unreachable" (with
// the reason in Text), "failed" (the server answered with an error) or
// "unsupported" (an API this version cannot test).
type ConnectionTest struct {
	RequestID string `json:"request_id"`
	Preset    string `json:"preset"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
	// Msg is Text as phrases, one a sentence, the page words in its
	// language (none: the page shows Text).
	Msg    []phrase.Phrase `json:"msg,omitempty"`
	Models []string        `json:"models"`
	// Cause is the failure's kind in app/conncause's terms ("refused",
	// "no_host", "timeout", "tls", "not_push", "not_api", "key", …), "" on success.
	Cause string `json:"cause,omitempty"`
	// Settings: the fix is a setting (offer the Chat API field for
	// not_push and not_api).
	Settings bool `json:"settings,omitempty"`
	// Agents are the agents a Standard Agents runtime listed (the
	// agent picker); [] otherwise.
	Agents []AgentItem `json:"agents"`
}

// AgentItem is one agent of a Standard Agents runtime.
type AgentItem struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// The message window (role "message", a preset): it mirrors its pet page
// and shows the character's transcript. docs/message-window.md.
const (
	TypeTranscript      = "transcript"       // Transcript, core → message page (on connect and on a reset)
	TypeTranscriptEntry = "transcript_entry" // TranscriptEntry, core → message page (a row added or changed)
	TypeOpenMessages    = "open_messages"    // no fields, pet page → core
)

// WindowMessage is the message window's kind in WindowConfig: an ordinary
// resizable window that hides when closed, like the settings window.
const WindowMessage = "message"

// Message window size in CSS pixels, and the smallest it lays out in.
const (
	MessageWidth     = 420
	MessageHeight    = 560
	MessageMinWidth  = 320
	MessageMinHeight = 320
)

// TranscriptEntry is one row of the transcript: Kind "user", "reply"
// (Text as she said it, Reasoning folded at its top, State "streaming" or
// "done"), "tool" (Text the tool's label, State running/done/failed),
// "delegation" (Text the task, State running/done) or "error". ID grows
// with every row, so a page updates a row in place; At is epoch ms.
type TranscriptEntry struct {
	ID uint64 `json:"id"`
	// Conv is the conversation the row belongs to (New conversation
	// starts the next one; docs/history.md).
	Conv      int64  `json:"conv"`
	TurnID    string `json:"turn_id"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
	Reasoning string `json:"reasoning"`
	State     string `json:"state"`
	At        int64  `json:"at"`
}

// Transcript is the newest rows of the current conversation, oldest
// first (at most history.PageRows): it replaces what the page shows. Conv
// is the current conversation; More says whether older rows exist (of
// this conversation or earlier ones: the page asks for them with
// history_page as the user scrolls back).
type Transcript struct {
	Conv    int64             `json:"conv"`
	Entries []TranscriptEntry `json:"entries"`
	More    bool              `json:"more"`
}

// WindowTitle retitles a window: its character was renamed.
type WindowTitle struct {
	Title string `json:"title"`
}
