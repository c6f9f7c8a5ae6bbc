package core

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"yui/app/core/windows"
	"yui/app/delegation"
	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/view"
)

func TestOpenSettingsStartsTheWindowOnceThenShowsIt(t *testing.T) {
	dir := t.TempDir()
	l := windowLauncher()
	st := startCore(t, Options{ConfigDir: dir, Launch: l.Launch, Exe: "/bin/yui-test"})
	p := st.c.Settings().Get().Presets[0]
	petConn := st.dial(t, view.RolePet, p.ID)
	send(t, petConn, map[string]any{"type": "open_settings", "section": "permissions"})
	waitFor(t, "the settings window", func() bool { return l.Count(windows.Settings) == 1 })
	// The settings window's spec (her pet window may be launched before
	// or after it: nothing orders the two).
	var sp supervisor.Spec
	for _, s := range l.Specs() {
		if s.Name == windows.Settings {
			sp = s
		}
	}
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
	if cfg.Kind != view.WindowSettings || cfg.Width != windows.SettingsWidth || cfg.MinWidth != windows.SettingsMinWidth || cfg.X != nil {
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
	if n := l.Count(windows.Settings); n != 1 {
		t.Fatalf("settings window started %d times", n)
	}
	// The window process ending (a crash) is not restarted on its own; the
	// next open starts it again.
	l.Proc(windows.Settings).Signal(os.Kill)
	shell.CloseNow()
	waitFor(t, "the settings window to be let go", func() bool { return !st.c.sup.Supervised(windows.Settings) })
	if n := l.Count(windows.Settings); n != 1 {
		t.Fatalf("restarted by itself: %d starts", n)
	}
	send(t, petConn, map[string]any{"type": "open_settings", "section": "backend"})
	waitFor(t, "the settings window again", func() bool { return l.Count(windows.Settings) == 2 })
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

// A settings window hidden for SettingsIdleExit ends (window_quit to its
// shell, then the supervisor's stop); the next open starts a new process.
// Shown again before then, it is kept.
func TestHiddenSettingsWindowExitsAfterIdleAndReopens(t *testing.T) {
	l := windowLauncher()
	st := startCore(t, Options{Launch: l.Launch, Exe: "/bin/yui-test", SettingsIdleExit: 50 * time.Millisecond})
	id := st.c.Settings().Get().Presets[0].ID
	st.c.sui.Open(id, "")
	waitFor(t, "the settings window", func() bool { return l.Count(windows.Settings) == 1 && st.c.sup.Running(windows.Settings) })
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
	waitFor(t, "the hidden settings process ended", func() bool { return !st.c.sup.Supervised(windows.Settings) })
	st.c.sui.Open(id, "")
	waitFor(t, "a new settings process", func() bool { return l.Count(windows.Settings) == 2 && st.c.sup.Running(windows.Settings) })
}
