package core

import (
	"slices"
	"strings"

	"yui/app/settings"
	"yui/app/view"
)

// A new character's backend (issue 21; docs/decisions.md, "A new
// character starts on the main one's backend"). Add character in the
// settings window used to start a draft on push with no URL, so a second
// character said "not configured" while the first talked to the demo.
// It now starts on the main character's backend — the embedded demo for
// a new user — and takes the main one's key by reference: the page never
// sees a key, it names the preset (SavePreset.KeyFrom) and the core
// copies the key at the save, only onto the same origin. These two
// functions are the whole rule; the settings page shows what they say.

// newPresetForm is the backend Add character starts with: s's main
// character's, when this build can run its API; otherwise push with no
// URL, as before.
func newPresetForm(s settings.Settings) view.NewPresetForm {
	main, ok := s.Preset(s.ActivePreset)
	if !ok || !slices.Contains(AvailableChatAPIs, main.ChatAPI) {
		return view.NewPresetForm{ChatAPI: "push"}
	}
	f := view.NewPresetForm{ChatAPI: main.ChatAPI, ChatBaseURL: main.ChatBaseURL, Model: main.Model,
		ReasoningEffort: main.ReasoningEffort, ContextWindow: main.ContextWindow, AgentID: main.AgentID}
	if main.Key != "" {
		f.KeyFrom = main.ID
	}
	return f
}

// keyFromPreset is the key a new preset takes from the saved preset from
// (SavePreset.KeyFrom, TestConnection.KeyFrom): that preset's key when
// base has its origin, "" otherwise (no such preset, no key, another
// server).
func keyFromPreset(saved settings.Settings, from, base string) string {
	src, ok := saved.Preset(strings.TrimSpace(from))
	if !ok || src.Key == "" {
		return ""
	}
	if o := backendOrigin(base); o == "" || o != backendOrigin(src.ChatBaseURL) {
		return ""
	}
	return src.Key
}
