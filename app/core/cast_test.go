package core

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"yui/app/applog"
	"yui/app/settings"
	"yui/app/view"
)

func TestOffAndOnAgainQuicklyGetsTheWindowBack(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) { x.Presets = append(x.Presets, settings.NewPreset("Mio")) })
	l := windowLauncher()
	st := startCore(t, Options{ConfigDir: dir, Launch: l.Launch, Exe: "/bin/yui-test"})
	all := st.c.Settings().Get()
	mio := "pet:" + all.Presets[1].ID
	waitFor(t, "Mio's window", func() bool { return l.Count(mio) == 1 })
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
	waitFor(t, "Mio's window started again", func() bool { return l.Count(mio) == 2 && st.c.sup.Running(mio) })
	if st.c.pet(all.Presets[1].ID) == nil {
		t.Fatal("no pet for Mio")
	}
}

func TestSaveAddsAndRemovesCharactersWithTheirWindows(t *testing.T) {
	dir := t.TempDir()
	l := windowLauncher()
	st := startCore(t, Options{ConfigDir: dir, Launch: l.Launch, Exe: "/bin/yui-test"})
	before := st.c.Settings().Get()
	waitFor(t, "the first pet window", func() bool { return l.Count("pet:"+before.Presets[0].ID) == 1 })
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
	waitFor(t, "Mio's pet window", func() bool { return l.Count("pet:p-0badcafe") == 1 })
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
	mio := l.Proc("pet:p-0badcafe")
	select {
	case <-mio.Done():
	case <-time.After(hangLimit):
		t.Fatal("Mio's window was not ended")
	}
	waitFor(t, "Mio's window unsupervised", func() bool { return !st.c.sup.Supervised("pet:p-0badcafe") })
	if st.c.pet("p-0badcafe") != nil || l.Count("pet:p-0badcafe") != 1 {
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
	if st.c.pet(p.ID) != first || !first.Gate.EachTurn() {
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

func TestSettingsWindowResetsAndReconnectsAPreset(t *testing.T) {
	t.Parallel() // real-time speech on its own core and demo backend
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
