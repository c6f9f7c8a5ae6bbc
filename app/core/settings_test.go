package core

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"

	"yui/app/applog"
	"yui/app/settings"
	"yui/app/view"
)

func TestSettingsPageGetsStateButNeverTheKey(t *testing.T) {
	dir := t.TempDir()
	st := startCore(t, Options{ConfigDir: dir})
	saved := st.c.Settings().Get()
	key := saved.Presets[0].Key
	if key == "" {
		t.Fatal("defaults have no key")
	}
	page := readPage(st.dial(t, view.RoleSettings, ""))
	page.wait(t, "settings_state and status", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypeSettingsState] != nil && l[view.TypeSettingsStatus] != nil
	})
	var state view.SettingsState
	b, _ := json.Marshal(page.last(view.TypeSettingsState))
	json.Unmarshal(b, &state)
	if len(state.Presets) != 1 || !state.Presets[0].HasKey || state.Presets[0].ChatID != saved.Presets[0].ChatID ||
		state.ActivePreset != saved.ActivePreset || state.Path != dir+"/settings.json" {
		t.Fatalf("state %s", b)
	}
	if len(state.Choices.ChatAPIs) != 4 || !state.Choices.ChatAPIs[0].Available || !state.Choices.ChatAPIs[1].Available ||
		!state.Choices.ChatAPIs[2].Available || !state.Choices.ChatAPIs[3].Available || state.Choices.ChatAPIs[3].Label != "Standard Agents threads" ||
		len(state.Choices.ScreenModes) != 3 || len(state.Choices.Looks) == 0 {
		t.Fatalf("choices %+v", state.Choices)
	}
	for _, m := range page.messages() {
		b, _ := json.Marshal(m)
		if strings.Contains(string(b), key) {
			t.Fatalf("the key reached the settings page: %s", b)
		}
	}
}

func TestSaveRenamesKeepsWhatTheFormDoesNotEditAndThePetFollows(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) { x.Presets[0].Window = &settings.Position{X: 40, Y: 50} })
	st := startCore(t, Options{ConfigDir: dir})
	before := st.c.Settings().Get()
	p := before.Presets[0]
	pet := readPage(st.dial(t, view.RolePet, p.ID))
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	page.wait(t, "state", func(_ []map[string]any, l map[string]map[string]any) bool { return l[view.TypeSettingsState] != nil })
	rev := page.last(view.TypeSettingsState)["revision"].(float64)

	req := formOf(before)
	req.RequestID = "rename"
	req.Presets[0].Name = "  Mika "
	req.Presets[0].ContextWindow = 128000
	send(t, conn, saveMsg(req))
	if res := page.result(t, "rename"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	got := readFile(t, dir)
	q := got.Presets[0]
	if q.Name != "Mika" || q.Key != p.Key || q.ChatID != p.ChatID || q.Window == nil || q.Window.X != 40 || q.ContextWindow != 128000 {
		t.Fatalf("saved %+v", q)
	}
	pet.wait(t, "the pet shows the new name", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePreset] != nil && l[view.TypePreset]["name"] == "Mika"
	})
	page.wait(t, "a newer settings_state", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypeSettingsState]["revision"].(float64) > rev
	})
}

func TestRefusedSaveNamesTheFieldAndChangesNothing(t *testing.T) {
	withoutAPI(t, "standard_agents")
	dir := t.TempDir()
	st := startCore(t, Options{ConfigDir: dir})
	before := st.c.Settings().Get()
	raw, _ := os.ReadFile(dir + "/settings.json")
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	cases := []struct {
		name, field string
		edit        func(*view.SaveSettings)
	}{
		{"bad url", "presets[0].chat_base_url", func(r *view.SaveSettings) { r.Presets[0].ChatBaseURL = "ftp://x" }},
		{"empty name", "presets[0].name", func(r *view.SaveSettings) { r.Presets[0].Name = "   " }},
		{"unavailable api", "presets[0].chat_api", func(r *view.SaveSettings) { r.Presets[0].ChatAPI = "standard_agents" }},
		{"unknown look", "presets[0].look", func(r *view.SaveSettings) { r.Presets[0].Look = "cat" }},
		{"bad thread id", "presets[0].thread_id", func(r *view.SaveSettings) { r.Presets[0].ThreadID = "../etc" }},
		{"main off", "active_preset", func(r *view.SaveSettings) { r.Presets[0].Enabled = false }},
		{"screen mode", "presets[0].permissions.screen", func(r *view.SaveSettings) { r.Presets[0].Permissions.Screen = "sometimes" }},
		{"second preset's id", "presets[1].id", func(r *view.SaveSettings) {
			r.Presets = append(r.Presets, r.Presets[0])
			r.Presets[1].ID = "p-NOTHEX!"
		}},
		{"duplicate id", "presets[1].id", func(r *view.SaveSettings) { r.Presets = append(r.Presets, r.Presets[0]) }},
		{"all removed", "presets", func(r *view.SaveSettings) { r.Presets = nil }},
	}
	for _, tc := range cases {
		req := formOf(before)
		req.RequestID = tc.name
		tc.edit(&req)
		send(t, conn, saveMsg(req))
		res := page.result(t, tc.name)
		if res["ok"] != false || res["field"] != tc.field || res["error"] == "" {
			t.Errorf("%s: result %v, want field %s", tc.name, res, tc.field)
		}
	}
	// A URL without a scheme: refused with the suggestion to offer.
	req := formOf(before)
	req.RequestID = "schemeless"
	req.Presets[0].ChatBaseURL = "localhost:11434"
	send(t, conn, saveMsg(req))
	if res := page.result(t, "schemeless"); res["field"] != "presets[0].chat_base_url" || res["suggestion"] != "http://localhost:11434" ||
		!strings.Contains(fmt.Sprint(res["error"]), "did you mean http://localhost:11434?") {
		t.Errorf("schemeless: %v", res)
	}
	now, _ := os.ReadFile(dir + "/settings.json")
	if string(now) != string(raw) {
		t.Fatalf("a refused save changed the file:\n%s", now)
	}
	// An unreadable request is answered too, not dropped silently.
	send(t, conn, map[string]any{"type": "save_settings", "request_id": "junk", "presets": "all of them"})
	page.wait(t, "an answer to the unreadable save", func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, m := range all {
			if m["type"] == view.TypeSettingsResult && m["ok"] == false && m["request_id"] == "junk" &&
				strings.Contains(m["error"].(string), "unreadable") {
				return true
			}
		}
		return false
	})
}

func TestOnlyTheSettingsPageSaves(t *testing.T) {
	dir := t.TempDir()
	logs := &recorder{}
	st := startCore(t, Options{ConfigDir: dir, Logger: applog.New(logs, slog.LevelInfo)})
	before := st.c.Settings().Get()
	req := formOf(before)
	req.Presets[0].Name = "Hijack"
	send(t, st.dial(t, view.RolePet, before.Presets[0].ID), saveMsg(req))
	waitFor(t, "the pet's save refused in the log", func() bool {
		for _, l := range logs.lines() {
			if l["event"] == "view_refused" && l["type"] == view.TypeSaveSettings && l["role"] == view.RolePet {
				return true
			}
		}
		return false
	})
	if n := readFile(t, dir).Presets[0].Name; n != "Yui" {
		t.Fatalf("a pet page renamed the preset to %q", n)
	}
}

func TestRefusalLogNamesTheFieldButNotTheValue(t *testing.T) {
	dir := t.TempDir()
	logs := &recorder{}
	st := startCore(t, Options{ConfigDir: dir, Logger: applog.New(logs, slog.LevelInfo)})
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	req := formOf(st.c.Settings().Get())
	req.RequestID = "pasted"
	req.Presets[0].ChatBaseURL = "sk-proj-pasted-key-123"
	send(t, conn, saveMsg(req))
	if res := page.result(t, "pasted"); res["field"] != "presets[0].chat_base_url" {
		t.Fatalf("result %v", res)
	}
	found := false
	for _, l := range logs.lines() {
		b, _ := json.Marshal(l)
		if strings.Contains(string(b), "sk-proj-pasted-key-123") {
			t.Fatalf("the refused value is in the log: %s", b)
		}
		found = found || (l["event"] == "settings_refused" && l["field"] == "presets[0].chat_base_url")
	}
	if !found {
		t.Fatal("no settings_refused line naming the field")
	}
}

func TestSaveAfterShutdownBeganChangesNothing(t *testing.T) {
	dir := t.TempDir()
	st := startCore(t, Options{ConfigDir: dir})
	req := formOf(st.c.Settings().Get())
	req.Presets = append(req.Presets, view.SavePreset{PresetFields: view.PresetFields{ID: "p-0badcafe", Name: "Late", Enabled: true,
		Look: "yui", ChatAPI: "push", Permissions: view.PermissionsForm{Screen: "ask"}}})
	if err := st.stop(); err != nil {
		t.Fatal(err)
	}
	st.c.sui.Save(req) // as a save waiting on applyMu during shutdown would
	if n := len(readFile(t, dir).Presets); n != 1 {
		t.Fatalf("a save after shutdown wrote %d presets", n)
	}
	if st.c.pet("p-0badcafe") != nil {
		t.Fatal("a save after shutdown started a pet nothing will close")
	}
}

func TestGateFollowsTheFileOnEverySave(t *testing.T) {
	dir := t.TempDir()
	st := startCore(t, Options{ConfigDir: dir})
	all := st.c.Settings().Get()
	pt := st.c.pet(all.Presets[0].ID)
	// The gate drifted from the file (as when a prompt's "Always" landed
	// between a save's read and write).
	pt.Gate.SetPermissions(settings.Permissions{Screen: "allow"})
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	req := formOf(all)
	req.RequestID = "same"
	send(t, conn, saveMsg(req))
	page.result(t, "same")
	if m := pt.Gate.Mode(); string(m) != "ask" {
		t.Fatalf("gate mode %q after a save of ask", m)
	}
}

func TestUnknownLookInTheFileDoesNotBlockSaving(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) {
		p := settings.NewPreset("Neko")
		p.Look = "cat" // from a newer version
		x.Presets = append(x.Presets, p)
	})
	st := startCore(t, Options{ConfigDir: dir})
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	req := formOf(st.c.Settings().Get())
	req.RequestID = "rename"
	req.Presets[0].Name = "Yui 2"
	send(t, conn, saveMsg(req))
	if res := page.result(t, "rename"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	req.RequestID = "choose"
	req.Presets[0].Look = "dog"
	send(t, conn, saveMsg(req))
	if res := page.result(t, "choose"); res["field"] != "presets[0].look" {
		t.Fatalf("choosing an unknown look: %v", res)
	}
}

func TestContextWindowShowsAtOnce(t *testing.T) {
	dir := t.TempDir()
	st := startCore(t, Options{ConfigDir: dir})
	all := st.c.Settings().Get()
	pet := readPage(st.dial(t, view.RolePet, all.Presets[0].ID))
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	req := formOf(all)
	req.RequestID = "cw"
	req.Presets[0].ContextWindow = 200000
	send(t, conn, saveMsg(req))
	page.result(t, "cw")
	pet.wait(t, "usage with the new context window", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypeUsage] != nil && l[view.TypeUsage]["context_window"] == float64(200000)
	})
}

func TestTypedKeyNeverReachesTheTrace(t *testing.T) {
	dir := t.TempDir()
	st := startCore(t, Options{ConfigDir: dir})
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	req := formOf(st.c.Settings().Get())
	req.RequestID = "key"
	secret := "sk-very-secret-0123456789"
	req.Presets[0].Key = &secret
	// The Listening section's transcription key travels in the same save.
	listenSecret := "sk-listen-secret-9876543210"
	req.Listen, req.ListenKey = &view.ListenForm{}, &listenSecret
	send(t, conn, saveMsg(req))
	if res := page.result(t, "key"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	if f := readFile(t, dir); f.Presets[0].Key != secret || f.Listen.Key != listenSecret {
		t.Fatal("keys not saved")
	}
	seen := false
	for _, l := range st.trace.lines() {
		b, _ := json.Marshal(l)
		if strings.Contains(string(b), secret) || strings.Contains(string(b), listenSecret) {
			t.Fatalf("a key is in the trace: %s", b)
		}
		m, _ := l["message"].(map[string]any)
		seen = seen || (m["type"] == view.TypeSaveSettings && strings.Contains(string(b), "(redacted)"))
	}
	if !seen {
		t.Fatal("the save is not in the trace at all")
	}
}
