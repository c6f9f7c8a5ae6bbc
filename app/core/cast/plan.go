package cast

import "yui/app/settings"

// Action is what a save does to one character.
type Action int

// The actions, in the order Plan lists them for one character.
const (
	// Stop ends a character whose preset is now off or gone (her window
	// and connection).
	Stop Action = iota
	// Forget drops what is kept of a preset that is gone (her standings).
	Forget
	// Start makes a character newly on.
	Start
	// Remake makes a running character anew: a new session and
	// connection, her window stays.
	Remake
	// Update applies changes that need no new connection, in place.
	Update
)

// Step is one action on one character.
type Step struct {
	Do Action
	// Old is her preset before the save (Stop, Forget, Remake, Update);
	// New after it (Start, Remake, Update).
	Old, New settings.Preset
	// Main: New is the main character.
	Main bool
}

// Plan is what bringing the running characters from before to after
// takes: first every Stop and Forget (in before's order), then each
// enabled preset's Start, Remake or Update (in after's order). A running
// character is made anew when her connection settings (ConnectionChanged),
// her main-ness or her MCP servers changed, or when remake says so (a new
// tag table changes the hello's vocabulary: a new connection declares it).
func Plan(before, after settings.Settings, remake func(old, p settings.Preset) bool) []Step {
	var steps []Step
	for _, old := range before.Presets {
		p, ok := after.Preset(old.ID)
		if old.Enabled && (!ok || !p.Enabled) {
			steps = append(steps, Step{Do: Stop, Old: old})
		}
		if !ok {
			steps = append(steps, Step{Do: Forget, Old: old})
		}
	}
	for _, p := range after.Presets {
		if !p.Enabled {
			continue
		}
		main := p.ID == after.ActivePreset
		old, had := before.Preset(p.ID)
		step := Step{Do: Update, Old: old, New: p, Main: main}
		switch {
		case !had || !old.Enabled:
			step.Do = Start
		case ConnectionChanged(old, p) || (old.ID == before.ActivePreset) != main || remake(old, p) || settings.MCPChanged(old, p):
			step.Do = Remake
		}
		steps = append(steps, step)
	}
	return steps
}

// ConnectionChanged reports a change that needs a new connection (a
// Standard Agents character's agent is read when it makes a thread; its
// thread is its connection).
func ConnectionChanged(a, b settings.Preset) bool {
	return a.ChatAPI != b.ChatAPI || a.ChatBaseURL != b.ChatBaseURL || a.Key != b.Key || a.ChatID != b.ChatID ||
		a.ThreadID != b.ThreadID
}
