package core

import (
	"encoding/json"
	"strings"
	"testing"

	"yui/app/settings"
	"yui/app/view"
)

// The backend Add character starts on is the main character's; a main one
// on an API this build lacks gives the old push with no URL.
func TestNewPresetFormIsTheMainCharactersBackend(t *testing.T) {
	s := settings.Defaults()
	yui := s.Presets[0]
	if got, want := newPresetForm(s), (view.NewPresetForm{ChatAPI: "push", ChatBaseURL: settings.DemoBaseURL, KeyFrom: yui.ID}); got != want {
		t.Fatalf("on the demo: %+v, want %+v", got, want)
	}
	mio := settings.NewPreset("Mio")
	mio.ChatAPI, mio.ChatBaseURL, mio.Model, mio.ReasoningEffort, mio.ContextWindow = "chat_completions", "http://127.0.0.1:8080/v1", "qwen3", "low", 32768
	mio.Card = "Mio's own persona"
	s.Presets = append(s.Presets, mio)
	s.ActivePreset = mio.ID
	if got, want := newPresetForm(s), (view.NewPresetForm{ChatAPI: "chat_completions", ChatBaseURL: "http://127.0.0.1:8080/v1",
		Model: "qwen3", ReasoningEffort: "low", ContextWindow: 32768}); got != want {
		t.Fatalf("on llama.cpp without a key: %+v, want %+v", got, want)
	}
	s.Presets[1].ChatAPI = "a_future_api"
	if got := newPresetForm(s); got != (view.NewPresetForm{ChatAPI: "push"}) {
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

// Issue 21: a second character added in the settings window started on
// push with no URL ("not configured") while the first talked to the demo.
// It now starts on the main one's backend, takes its key there (the demo
// accepts only that key), and connects; a new character pointed elsewhere
// gets no key, and neither a test nor a save sends it there.
func TestANewCharacterStartsOnTheMainOnesBackendAndConnects(t *testing.T) {
	dir := t.TempDir()
	st := startCore(t, Options{ConfigDir: dir, Demo: true, DemoAddr: "127.0.0.1:0"})
	before := st.c.Settings().Get()
	yui := before.Presets[0]
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	page.wait(t, "settings_state", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypeSettingsState] != nil
	})
	var state view.SettingsState
	b, _ := json.Marshal(page.last(view.TypeSettingsState))
	json.Unmarshal(b, &state)
	if want := (view.NewPresetForm{ChatAPI: "push", ChatBaseURL: settings.DemoBaseURL, KeyFrom: yui.ID}); state.NewPreset != want {
		t.Fatalf("new_preset %+v, want %+v", state.NewPreset, want)
	}
	if strings.Contains(string(b), yui.Key) {
		t.Fatal("the key reached the settings page")
	}

	// Another server, to see what it is sent.
	other := newModelServer(t)

	// Test connection of the unsaved character: with the main one's key on
	// the demo, without it elsewhere.
	ask := func(id, api, base string) map[string]any {
		t.Helper()
		send(t, conn, map[string]any{"type": "test_connection", "request_id": id, "preset": "p-0000abcd", "chat_api": api,
			"chat_base_url": base, "key_from": yui.ID})
		return connectionTestAnswer(t, page, id)
	}
	if r := ask("demo", "push", settings.DemoBaseURL); r["kind"] != "ok" {
		t.Fatalf("a new character on the demo, tested with the main one's key: %v", r)
	}
	if r := ask("other", "chat_completions", other.URL); r["kind"] != "ok" {
		t.Fatalf("the other server: %v", r)
	}

	// Save two new characters, both naming the main one's key: Mio on the
	// demo gets it, Rin on the other server does not.
	req := formOf(before)
	req.RequestID = "add"
	perms := view.PermissionsForm{Screen: "ask"}
	req.Presets = append(req.Presets,
		view.SavePreset{KeyFrom: yui.ID, PresetFields: view.PresetFields{ID: "p-0000abcd", Name: "Mio", Enabled: true, Look: "yui",
			ChatAPI: state.NewPreset.ChatAPI, ChatBaseURL: state.NewPreset.ChatBaseURL, Permissions: perms}},
		view.SavePreset{KeyFrom: yui.ID, PresetFields: view.PresetFields{ID: "p-0000beef", Name: "Rin", Enabled: true, Look: "yui",
			ChatAPI: "chat_completions", ChatBaseURL: other.URL, Permissions: perms}})
	send(t, conn, saveMsg(req))
	if res := page.result(t, "add"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	got := readFile(t, dir)
	if len(got.Presets) != 3 || got.Presets[1].Key != yui.Key || got.Presets[2].Key != "" {
		t.Fatalf("keys after the save: Mio %q, Rin %q (main %q)", got.Presets[1].Key, got.Presets[2].Key, yui.Key)
	}
	// Mio connects to the demo as the first character does.
	page.wait(t, "Mio connected", func(_ []map[string]any, l map[string]map[string]any) bool {
		var ss view.SettingsStatus
		b, _ := json.Marshal(l[view.TypeSettingsStatus])
		json.Unmarshal(b, &ss)
		for _, p := range ss.Presets {
			if p.ID == "p-0000abcd" {
				return p.State == "ready"
			}
		}
		return false
	})

	// A saved preset never takes a key by key_from: Rin moved to the demo
	// stays without one.
	req = formOf(got)
	req.RequestID = "move"
	req.Presets[2].ChatAPI, req.Presets[2].ChatBaseURL, req.Presets[2].KeyFrom = "push", settings.DemoBaseURL, yui.ID
	send(t, conn, saveMsg(req))
	if res := page.result(t, "move"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	if k := readFile(t, dir).Presets[2].Key; k != "" {
		t.Fatalf("a saved preset took a key by key_from: %q", k)
	}
	for _, a := range other.auth() {
		if a != "" {
			t.Fatalf("the main character's key went to another server: %q", other.auth())
		}
	}
}
