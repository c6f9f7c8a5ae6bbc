package settingsui

import (
	"slices"
	"testing"

	apppet "yui/app/pet"
	"yui/app/settings"
	"yui/app/view"
)

// The backend Add character starts on is the main character's; a main one
// on an API this build lacks gives the old push with no URL.
func TestNewPresetFormIsTheMainCharactersBackend(t *testing.T) {
	s := settings.Defaults()
	yui := s.Presets[0]
	if got, want := newPresetForm(s, func(api string) bool { return slices.Contains(apppet.Wires, api) }), (view.NewPresetForm{ChatAPI: "push", ChatBaseURL: settings.DemoBaseURL, KeyFrom: yui.ID}); got != want {
		t.Fatalf("on the demo: %+v, want %+v", got, want)
	}
	mio := settings.NewPreset("Mio")
	mio.ChatAPI, mio.ChatBaseURL, mio.Model, mio.ReasoningEffort, mio.ContextWindow = "chat_completions", "http://127.0.0.1:8080/v1", "qwen3", "low", 32768
	mio.Card = "Mio's own persona"
	s.Presets = append(s.Presets, mio)
	s.ActivePreset = mio.ID
	if got, want := newPresetForm(s, func(api string) bool { return slices.Contains(apppet.Wires, api) }), (view.NewPresetForm{ChatAPI: "chat_completions", ChatBaseURL: "http://127.0.0.1:8080/v1",
		Model: "qwen3", ReasoningEffort: "low", ContextWindow: 32768}); got != want {
		t.Fatalf("on llama.cpp without a key: %+v, want %+v", got, want)
	}
	s.Presets[1].ChatAPI = "a_future_api"
	if got := newPresetForm(s, func(api string) bool { return slices.Contains(apppet.Wires, api) }); got != (view.NewPresetForm{ChatAPI: "push"}) {
		t.Fatalf("on an API this build lacks: %+v", got)
	}
}

// A key is copied only onto its own origin, from a preset that has one.
func TestKeyFromPresetStaysOnItsOrigin(t *testing.T) {
	s := settings.Defaults()
	yui := s.Presets[0]
	for _, c := range []struct {
		from, base, want string
	}{
		{yui.ID, settings.DemoBaseURL, yui.Key},
		{yui.ID, settings.DemoBaseURL + "/v1", yui.Key}, // same origin, another path
		{yui.ID, "http://localhost:8646", ""},           // another host name is another origin
		{yui.ID, "https://127.0.0.1:8646", ""},
		{yui.ID, "http://127.0.0.1:9", ""},
		{yui.ID, "", ""},
		{"p-nobody", settings.DemoBaseURL, ""},
		{"", settings.DemoBaseURL, ""},
	} {
		if got := keyFromPreset(s, c.from, c.base); got != c.want {
			t.Errorf("keyFromPreset(%q, %q) = %q, want %q", c.from, c.base, got, c.want)
		}
	}
}
