package view

import "yui/app/phrase"

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
