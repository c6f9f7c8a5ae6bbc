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
