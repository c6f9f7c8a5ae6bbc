package core

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/applog"
	"yui/app/delegation"
	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/view"
)

// formOf turns the saved settings into the save request the settings page
// would send unchanged.
func formOf(s settings.Settings) view.SaveSettings {
	req := view.SaveSettings{RequestID: "r1", ActivePreset: s.ActivePreset}
	for _, p := range s.Presets {
		req.Presets = append(req.Presets, view.SavePreset{PresetFields: presetForm(p).PresetFields})
	}
	return req
}

func saveMsg(req view.SaveSettings) map[string]any {
	b, _ := json.Marshal(req)
	var m map[string]any
	json.Unmarshal(b, &m)
	m["type"] = view.TypeSaveSettings
	return m
}

// result waits for the settings_result of request id.
func (pr *pageReader) result(t *testing.T, id string) map[string]any {
	t.Helper()
	return pr.answer(t, view.TypeSettingsResult, id)
}

// answer waits for the message of type typ answering request id.
func (pr *pageReader) answer(t *testing.T, typ, id string) map[string]any {
	t.Helper()
	var res map[string]any
	pr.wait(t, typ+" "+id, func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, m := range all {
			if m["type"] == typ && m["request_id"] == id {
				res = m
				return true
			}
		}
		return false
	})
	return res
}

func readFile(t *testing.T, dir string) settings.Settings {
	t.Helper()
	b, err := os.ReadFile(dir + "/" + settings.FileName)
	if err != nil {
		t.Fatal(err)
	}
	s, err := settings.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

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

// withoutAPI makes the core run as a build without chat_api id would,
// for the test's length (every API of settings.ChatAPIs is built now).
func withoutAPI(t *testing.T, id string) {
	t.Helper()
	saved := AvailableChatAPIs
	AvailableChatAPIs = slices.DeleteFunc(slices.Clone(saved), func(a string) bool { return a == id })
	t.Cleanup(func() { AvailableChatAPIs = saved })
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
	st.c.saveSettings(req) // as a save waiting on applyMu during shutdown would
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
	pt.gate.SetPermissions(settings.Permissions{Screen: "allow"})
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	req := formOf(all)
	req.RequestID = "same"
	send(t, conn, saveMsg(req))
	page.result(t, "same")
	if m := pt.gate.Mode(); string(m) != "ask" {
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

func TestOffAndOnAgainQuicklyGetsTheWindowBack(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) { x.Presets = append(x.Presets, settings.NewPreset("Mio")) })
	l := &windowLauncher{}
	st := startCore(t, Options{ConfigDir: dir, Launch: l.launch, Exe: "/bin/yui-test"})
	all := st.c.Settings().Get()
	mio := "pet:" + all.Presets[1].ID
	waitFor(t, "Mio's window", func() bool { return l.count(mio) == 1 })
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	req := formOf(all)
	req.RequestID = "off"
	req.Presets[1].Enabled = false
	send(t, conn, saveMsg(req))
	page.result(t, "off")
	req.RequestID = "on"
	req.Presets[1].Enabled = true
	send(t, conn, saveMsg(req))
	page.result(t, "on")
	waitFor(t, "Mio's window started again", func() bool { return l.count(mio) == 2 && st.c.sup.Running(mio) })
	if st.c.pet(all.Presets[1].ID) == nil {
		t.Fatal("no pet for Mio")
	}
}

// windowLauncher records window starts and lets tests end them.
type windowLauncher struct {
	mu    sync.Mutex
	specs []supervisor.Spec
	procs map[string]*idleProc
}

func (l *windowLauncher) launch(sp supervisor.Spec) (supervisor.Process, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := &idleProc{done: make(chan struct{})}
	if l.procs == nil {
		l.procs = map[string]*idleProc{}
	}
	l.procs[sp.Name] = p
	l.specs = append(l.specs, sp)
	return p, nil
}

func (l *windowLauncher) count(name string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, sp := range l.specs {
		if sp.Name == name {
			n++
		}
	}
	return n
}

// waitFor polls cond (a launched window, the supervisor's state, a file
// or log line) until it holds; hangLimit only bounds a hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSaveAddsAndRemovesCharactersWithTheirWindows(t *testing.T) {
	dir := t.TempDir()
	l := &windowLauncher{}
	st := startCore(t, Options{ConfigDir: dir, Launch: l.launch, Exe: "/bin/yui-test"})
	before := st.c.Settings().Get()
	waitFor(t, "the first pet window", func() bool { return l.count("pet:"+before.Presets[0].ID) == 1 })
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)

	req := formOf(before)
	req.RequestID = "add"
	key := "sk-new-character"
	req.Presets = append(req.Presets, view.SavePreset{Key: &key, PresetFields: view.PresetFields{ID: "p-0badcafe", Name: "Mio",
		Enabled: true, Look: "yui", ChatAPI: "push", ChatBaseURL: "ws://127.0.0.1:9", Permissions: view.PermissionsForm{Screen: "deny"}}})
	send(t, conn, saveMsg(req))
	if res := page.result(t, "add"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	waitFor(t, "Mio's pet window", func() bool { return l.count("pet:p-0badcafe") == 1 })
	got := readFile(t, dir)
	if len(got.Presets) != 2 || got.Presets[1].Name != "Mio" || got.Presets[1].Key != key ||
		!strings.HasPrefix(got.Presets[1].ChatID, "yui-") || got.Presets[1].ChatID == before.Presets[0].ChatID {
		t.Fatalf("saved %+v", got.Presets)
	}
	page.wait(t, "Mio in the status list", func(_ []map[string]any, l map[string]map[string]any) bool {
		b, _ := json.Marshal(l[view.TypeSettingsStatus])
		return strings.Contains(string(b), "p-0badcafe")
	})
	if st.c.pet("p-0badcafe") == nil {
		t.Fatal("no pet (session) for Mio")
	}

	// Switching Mio off ends its window and connection; nothing restarts it.
	req = formOf(got)
	req.RequestID = "off"
	req.Presets[1].Enabled = false
	send(t, conn, saveMsg(req))
	if res := page.result(t, "off"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	l.mu.Lock()
	mio := l.procs["pet:p-0badcafe"]
	l.mu.Unlock()
	select {
	case <-mio.done:
	case <-time.After(hangLimit):
		t.Fatal("Mio's window was not ended")
	}
	waitFor(t, "Mio's window unsupervised", func() bool { return !st.c.sup.Supervised("pet:p-0badcafe") })
	if st.c.pet("p-0badcafe") != nil || l.count("pet:p-0badcafe") != 1 {
		t.Fatal("Mio still runs or was restarted")
	}
	if readFile(t, dir).Presets[1].Enabled {
		t.Fatal("not saved as off")
	}

	// Removing her from the list removes the preset; Yui's window stays.
	req.RequestID = "remove"
	req.Presets = req.Presets[:1]
	send(t, conn, saveMsg(req))
	if res := page.result(t, "remove"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	if n := len(readFile(t, dir).Presets); n != 1 {
		t.Fatalf("%d presets after removal", n)
	}
	if !st.c.sup.Running("pet:" + before.Presets[0].ID) {
		t.Fatal("Yui's window stopped")
	}
}

func TestOpenSettingsStartsTheWindowOnceThenShowsIt(t *testing.T) {
	dir := t.TempDir()
	l := &windowLauncher{}
	st := startCore(t, Options{ConfigDir: dir, Launch: l.launch, Exe: "/bin/yui-test"})
	p := st.c.Settings().Get().Presets[0]
	petConn := st.dial(t, view.RolePet, p.ID)
	send(t, petConn, map[string]any{"type": "open_settings", "section": "permissions"})
	waitFor(t, "the settings window", func() bool { return l.count(settingsWindowName) == 1 })
	// The settings window's spec (her pet window may be launched before
	// or after it: nothing orders the two).
	var sp supervisor.Spec
	l.mu.Lock()
	for _, s := range l.specs {
		if s.Name == settingsWindowName {
			sp = s
		}
	}
	l.mu.Unlock()
	if args := strings.Join(sp.Args, " "); !strings.HasPrefix(args, "window --role settings --core ws://127.0.0.1:") ||
		strings.Contains(args, "--preset") || !sp.Once {
		t.Fatalf("spec %+v", sp)
	}
	page := readPage(st.dial(t, view.RoleSettings, ""))
	page.wait(t, "focus on the permissions", func(_ []map[string]any, l map[string]map[string]any) bool {
		f := l[view.TypeSettingsFocus]
		return f != nil && f["preset"] == p.ID && f["section"] == "permissions" && f["seq"].(float64) == 1
	})
	shell := st.dial(t, view.RoleShell, "")
	_, b, err := shell.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var cfg view.WindowConfig
	json.Unmarshal(b, &cfg)
	if cfg.Kind != view.WindowSettings || cfg.Width != SettingsWidth || cfg.MinWidth != SettingsMinWidth || cfg.X != nil {
		t.Fatalf("config %s", b)
	}
	send(t, petConn, map[string]any{"type": "open_settings"})
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	_, b, err = shell.Read(ctx)
	if err != nil || !strings.Contains(string(b), `"window_show"`) {
		t.Fatalf("shell got %s, %v; want window_show", b, err)
	}
	page.wait(t, "a second focus", func(_ []map[string]any, l map[string]map[string]any) bool {
		f := l[view.TypeSettingsFocus]
		return f["seq"].(float64) == 2 && f["section"] == ""
	})
	if n := l.count(settingsWindowName); n != 1 {
		t.Fatalf("settings window started %d times", n)
	}
	// The window process ending (a crash) is not restarted on its own; the
	// next open starts it again.
	l.mu.Lock()
	l.procs[settingsWindowName].Signal(os.Kill)
	l.mu.Unlock()
	shell.CloseNow()
	waitFor(t, "the settings window to be let go", func() bool { return !st.c.sup.Supervised(settingsWindowName) })
	if n := l.count(settingsWindowName); n != 1 {
		t.Fatalf("restarted by itself: %d starts", n)
	}
	send(t, petConn, map[string]any{"type": "open_settings", "section": "backend"})
	waitFor(t, "the settings window again", func() bool { return l.count(settingsWindowName) == 2 })
}

func TestConnectionChangesReconnectAndPermissionsApplyInPlace(t *testing.T) {
	dir := t.TempDir()
	st := startCore(t, Options{ConfigDir: dir, Demo: true, DemoAddr: "127.0.0.1:0"})
	before := st.c.Settings().Get()
	p := before.Presets[0]
	pet := readPage(st.dial(t, view.RolePet, p.ID))
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	page.wait(t, "connected", func(_ []map[string]any, l map[string]map[string]any) bool {
		b, _ := json.Marshal(l[view.TypeSettingsStatus])
		return strings.Contains(string(b), `"text":"connected"`)
	})
	first := st.c.pet(p.ID)

	// Permissions: the pill's capture segment follows, same session.
	req := formOf(before)
	req.RequestID = "capture"
	req.Presets[0].Permissions.ScreenshotEachTurn = true
	send(t, conn, saveMsg(req))
	if res := page.result(t, "capture"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	pet.wait(t, "capture segment", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePill] != nil && l[view.TypePill]["capture"] == true
	})
	if st.c.pet(p.ID) != first || !first.gate.EachTurn() {
		t.Fatal("a permission change replaced the session or did not reach the gate")
	}

	// A wrong key: a new session, which the demo backend refuses.
	req.RequestID = "key"
	bad := "demo-wrong"
	req.Presets[0].Key = &bad
	send(t, conn, saveMsg(req))
	if res := page.result(t, "key"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	pet.wait(t, "wrong key plate", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePlate]["text"] == "wrong key"
	})
	page.wait(t, "wrong key status", func(_ []map[string]any, l map[string]map[string]any) bool {
		b, _ := json.Marshal(l[view.TypeSettingsStatus])
		return strings.Contains(string(b), `"text":"wrong key"`)
	})
	if st.c.pet(p.ID) == first {
		t.Fatal("the key change kept the old session")
	}
	// And back: connected again.
	req.RequestID = "key-back"
	req.Presets[0].Key = &p.Key
	send(t, conn, saveMsg(req))
	page.result(t, "key-back")
	pet.wait(t, "connected again (plate hidden)", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePlate]["kind"] == ""
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

func TestAPresetOnAnAPIThisVersionLacksSaysSoAndStaysSaveable(t *testing.T) {
	withoutAPI(t, "standard_agents")
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) {
		p := settings.NewPreset("Later")
		p.ChatAPI = "standard_agents"
		p.ChatBaseURL = "https://api.example.invalid/v1"
		x.Presets = append(x.Presets, p)
	})
	st := startCore(t, Options{ConfigDir: dir})
	all := st.c.Settings().Get()
	later := all.Presets[1]
	pet := readPage(st.dial(t, view.RolePet, later.ID))
	pet.wait(t, "the plate names the missing API", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePlate] != nil && l[view.TypePlate]["text"] == "Standard Agents threads is not in this version"
	})
	if st.c.endpoint(later.ID) != "" {
		t.Fatal("a standard_agents preset would be dialled with the push client")
	}
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	req := formOf(all)
	req.RequestID = "rename-first"
	req.Presets[0].Name = "Yui 2"
	send(t, conn, saveMsg(req))
	if res := page.result(t, "rename-first"); res["ok"] != true {
		t.Fatalf("a save that leaves the responses preset alone was refused: %v", res)
	}
}

func TestSettingsHistoryListsEveryPresetsDelegations(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	off := settings.NewPreset("Off")
	off.Enabled = false
	s.Update(func(x *settings.Settings) { x.Presets = append(x.Presets, off) })
	// The switched-off preset has a history on disk from an earlier run.
	h, err := delegation.OpenHistory(dir, off.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := h.Merge([]delegation.Item{{ID: "d-old", Title: "Old task", StartedAt: now.Add(-time.Hour).UnixMilli(), State: "done",
		EndedAt: now.Add(-50 * time.Minute).UnixMilli(), Status: "completed", Summary: "All done."}}, now); err != nil {
		t.Fatal(err)
	}
	st := startCore(t, Options{ConfigDir: dir, Demo: true, DemoAddr: "127.0.0.1:0", DemoDelegationDelay: 200 * time.Millisecond})
	yui := st.c.Settings().Get().Presets[0]
	page := readPage(st.dial(t, view.RoleSettings, ""))
	history := func(l map[string]map[string]any, id string) []any {
		ps, _ := l[view.TypeSettingsHistory]["presets"].([]any)
		for _, p := range ps {
			pm := p.(map[string]any)
			if pm["id"] == id {
				items, _ := pm["items"].([]any)
				return items
			}
		}
		return nil
	}
	page.wait(t, "the switched-off preset's history from disk", func(_ []map[string]any, l map[string]map[string]any) bool {
		items := history(l, off.ID)
		return len(items) == 1 && items[0].(map[string]any)["summary"] == "All done."
	})
	pet := st.dial(t, view.RolePet, yui.ID)
	readPage(pet).wait(t, "connected", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePlate] != nil && l[view.TypePlate]["kind"] == ""
	})
	send(t, pet, map[string]any{"type": "send_text", "text": "delegate counting sheep"})
	page.wait(t, "Yui's delegation in the history, done with a summary", func(_ []map[string]any, l map[string]map[string]any) bool {
		items := history(l, yui.ID)
		if len(items) == 0 {
			return false
		}
		it := items[0].(map[string]any)
		return it["state"] == "done" && it["summary"] != nil && it["summary"] != ""
	})
}

func TestSettingsWindowResetsAndReconnectsAPreset(t *testing.T) {
	dir := t.TempDir()
	logs := &recorder{}
	st := startCore(t, Options{ConfigDir: dir, Demo: true, DemoAddr: "127.0.0.1:0", Logger: applog.New(logs, slog.LevelInfo)})
	yui := st.c.Settings().Get().Presets[0]
	pet := readPage(st.dial(t, view.RolePet, yui.ID))
	pet.wait(t, "connected", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePlate] != nil && l[view.TypePlate]["kind"] == ""
	})
	conn := st.dial(t, view.RoleSettings, "")
	send(t, conn, map[string]any{"type": "preset_action", "preset": yui.ID, "action": "reset"})
	waitFor(t, "the reset frame at the backend", func() bool {
		for _, l := range logs.lines() {
			if l["event"] == "demo.reset" { // the demo backend got the reset frame
				return true
			}
		}
		return false
	})
	// A pet page cannot use preset_action; the settings page can.
	petConn := st.dial(t, view.RolePet, yui.ID)
	send(t, petConn, map[string]any{"type": "preset_action", "preset": yui.ID, "action": "reconnect"})
	waitFor(t, "the pet's preset_action refused", func() bool {
		for _, l := range logs.lines() {
			if l["event"] == "view_refused" && l["type"] == "preset_action" {
				return true
			}
		}
		return false
	})
	from := len(pet.messages())
	send(t, conn, map[string]any{"type": "preset_action", "preset": yui.ID, "action": "reconnect"})
	pet.wait(t, "a reconnect (connecting, then connected)", func(all []map[string]any, l map[string]map[string]any) bool {
		sawConnecting := false
		for _, m := range all[from:] {
			sawConnecting = sawConnecting || (m["type"] == view.TypePlate && m["text"] == "connecting…")
		}
		return sawConnecting && l[view.TypePlate]["kind"] == ""
	})
	// After the reset, a new turn still plays.
	send(t, petConn, map[string]any{"type": "send_text", "text": "hello again"})
	pet.wait(t, "a reply after the reset", func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, m := range all {
			if m["type"] == view.TypeBubble && m["kind"] == "speech" && m["text"] != "" {
				return true
			}
		}
		return false
	})
}

// A settings window hidden for SettingsIdleExit ends (window_quit to its
// shell, then the supervisor's stop); the next open starts a new process.
// Shown again before then, it is kept.
func TestHiddenSettingsWindowExitsAfterIdleAndReopens(t *testing.T) {
	l := &windowLauncher{}
	st := startCore(t, Options{Launch: l.launch, Exe: "/bin/yui-test", SettingsIdleExit: 50 * time.Millisecond})
	id := st.c.Settings().Get().Presets[0].ID
	st.c.openSettings(id, "")
	waitFor(t, "the settings window", func() bool { return l.count(settingsWindowName) == 1 && st.c.sup.Running(settingsWindowName) })
	shell := readPage(st.dial(t, view.RoleShell, ""))
	conn := st.dial(t, view.RoleShell, "")
	send(t, conn, map[string]any{"type": view.TypeWindowHidden})
	shell.wait(t, "window_quit", func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, m := range all {
			if m["type"] == view.TypeWindowQuit {
				return true
			}
		}
		return false
	})
	waitFor(t, "the hidden settings process ended", func() bool { return !st.c.sup.Supervised(settingsWindowName) })
	st.c.openSettings(id, "")
	waitFor(t, "a new settings process", func() bool { return l.count(settingsWindowName) == 2 && st.c.sup.Running(settingsWindowName) })
}

// Reopening disarms the idle exit: a hidden window shown again is kept.
func TestReopenedSettingsWindowIsKept(t *testing.T) {
	l := &windowLauncher{}
	st := startCore(t, Options{Launch: l.launch, Exe: "/bin/yui-test", SettingsIdleExit: time.Hour})
	id := st.c.Settings().Get().Presets[0].ID
	st.c.openSettings(id, "")
	waitFor(t, "the settings window", func() bool { return st.c.sup.Running(settingsWindowName) })
	st.c.settingsHidden()
	st.c.settingsWin.mu.Lock()
	armed := st.c.settingsWin.idle != nil
	st.c.settingsWin.mu.Unlock()
	if !armed {
		t.Fatal("hiding armed no idle exit")
	}
	st.c.openSettings(id, "")
	st.c.settingsWin.mu.Lock()
	armed = st.c.settingsWin.idle != nil
	st.c.settingsWin.mu.Unlock()
	if armed || l.count(settingsWindowName) != 1 {
		t.Fatalf("after reopening: idle armed %v, starts %d", armed, l.count(settingsWindowName))
	}
	// A page may not claim to be the shell.
	page := st.dial(t, view.RoleSettings, "")
	send(t, page, map[string]any{"type": view.TypeWindowHidden})
	send(t, page, map[string]any{"type": "open_settings"})
	waitFor(t, "the page's open_settings handled", func() bool {
		st.c.settingsWin.mu.Lock()
		defer st.c.settingsWin.mu.Unlock()
		return st.c.settingsWin.focusSeq >= 3
	})
	st.c.settingsWin.mu.Lock()
	armed = st.c.settingsWin.idle != nil
	st.c.settingsWin.mu.Unlock()
	if armed {
		t.Fatal("a settings page armed the idle exit")
	}
}
