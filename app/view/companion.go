package view

// The quiet companion switch (docs/proactive.md): the pet menu's and the
// settings window's items, and the state a pet page shows in its menu.
const (
	TypeQuiet     = "quiet"     // Quiet, page → core
	TypeCompanion = "companion" // Companion, core → pet page (sticky)
)

// Quiet switches the quiet companion: Scope "character" (the sending pet
// page's character, or Preset from the settings window) or "all" (every
// character).
type Quiet struct {
	Scope  string `json:"scope"`
	Quiet  bool   `json:"quiet"`
	Preset string `json:"preset,omitempty"`
}

// Quiet scopes.
const (
	QuietCharacter = "character"
	QuietAll       = "all"
)

// Companion is the quiet companion state for a pet page's menu: her own
// switch and the global one.
type Companion struct {
	Quiet       bool `json:"quiet"`
	GlobalQuiet bool `json:"global_quiet"`
}

// TypeSettingsProactive is the settings window's "Speaking first"
// section: SettingsProactive, core → settings page (sticky).
const TypeSettingsProactive = "settings_proactive"

// SettingsProactive is the saved proactive section for the settings form.
type SettingsProactive struct {
	Form ProactiveForm `json:"form"`
}

// ProactiveForm is settings.json's proactive section as the form edits it
// (docs/proactive.md, "Settings"); "" and 0 are the defaults, which the
// page shows as such. SaveSettings.Proactive replaces the section with it.
type ProactiveForm struct {
	Quiet           bool           `json:"quiet"`
	GreetingsOff    bool           `json:"greetings_off"`
	Morning         string         `json:"morning"`
	Afternoon       string         `json:"afternoon"`
	Evening         string         `json:"evening"`
	Night           string         `json:"night"`
	AwayMinutes     int            `json:"away_minutes"`
	CheckinsOff     bool           `json:"checkins_off"`
	CheckinMinutes  []int          `json:"checkin_minutes"`
	AppNotesOff     bool           `json:"app_notes_off"`
	StretchMinutes  int            `json:"stretch_minutes"`
	QuietGapMinutes int            `json:"quiet_gap_minutes"`
	DebounceMinutes int            `json:"debounce_minutes"`
	HourlyCap       int            `json:"hourly_cap"`
	QuietHoursOff   bool           `json:"quiet_hours_off"`
	QuietFrom       string         `json:"quiet_from"`
	QuietTo         string         `json:"quiet_to"`
	WhenMuted       string         `json:"when_muted"`
	CallApps        []string       `json:"call_apps"`
	Schedules       []ScheduleForm `json:"schedules"`
}

// ScheduleForm is one reminder.
type ScheduleForm struct {
	Label string   `json:"label"`
	At    string   `json:"at"`
	Date  string   `json:"date"`
	Days  []string `json:"days"`
}
