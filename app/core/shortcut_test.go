package core

import (
	"context"
	"strings"
	"sync"
	"testing"

	"yui/app/core/settingsui"
	"yui/app/hotkey"
	"yui/app/settings"
	"yui/app/view"
)

// fakeKeys is a Grabber: it records what is grabbed and lets the test
// press it; taken combinations fail with ErrTaken.
type fakeKeys struct {
	mu      sync.Mutex
	taken   map[string]bool
	grabbed map[string]func()
	bell    bell
}

func (f *fakeKeys) Listen(ctx context.Context, c hotkey.Combo, fn func()) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	defer f.bell.ring()
	if f.taken[c.String()] {
		return hotkey.ErrTaken
	}
	if f.grabbed == nil {
		f.grabbed = map[string]func(){}
	}
	f.grabbed[c.String()] = fn
	context.AfterFunc(ctx, func() {
		f.mu.Lock()
		delete(f.grabbed, c.String())
		f.mu.Unlock()
		f.bell.ring()
	})
	return nil
}

func (f *fakeKeys) press(t *testing.T, combo string) {
	t.Helper()
	f.mu.Lock()
	fn := f.grabbed[combo]
	f.mu.Unlock()
	if fn == nil {
		t.Fatalf("%s is not grabbed", combo)
	}
	fn()
}

func (f *fakeKeys) has(combo string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.grabbed[combo] != nil
}

func TestGlobalShortcutOpensTheMainComposerAndFollowsTheSettings(t *testing.T) {
	dir := t.TempDir()
	keys := &fakeKeys{taken: map[string]bool{"Ctrl+Alt+K": true}}
	st := startCore(t, Options{ConfigDir: dir, Hotkeys: keys, Screen: screen1280()})
	keys.bell.await(t, "the default shortcut grabbed", func() bool { return keys.has(hotkey.Default) })
	p := st.c.Settings().Get().Presets[0]
	page := readPage(st.dial(t, view.RolePet, p.ID))
	page.wait(t, "the page's first topics", func(_ []map[string]any, l map[string]map[string]any) bool { return l["preset"] != nil })
	keys.press(t, hotkey.Default)
	page.wait(t, "open_composer", func(_ []map[string]any, l map[string]map[string]any) bool { return l["open_composer"] != nil })

	sp := readPage(st.dial(t, view.RoleSettings, ""))
	save := func(id string, kb view.KeyboardForm) map[string]any {
		req := view.SaveSettings{RequestID: id, ActivePreset: p.ID, Keyboard: &kb}
		for _, q := range st.c.Settings().Get().Presets {
			req.Presets = append(req.Presets, view.SavePreset{PresetFields: settingsui.Form(q).PresetFields})
		}
		st.c.sui.Save(req)
		var res map[string]any
		sp.wait(t, "the save's result", func(all []map[string]any, _ map[string]map[string]any) bool {
			for _, m := range all {
				if m["type"] == "settings_result" && m["request_id"] == id {
					res = m
					return true
				}
			}
			return false
		})
		return res
	}
	// Another combination: the old one is let go, the new one grabbed.
	if res := save("r1", view.KeyboardForm{Shortcut: "super+shift+y"}); res["ok"] != true {
		t.Fatalf("save: %v", res)
	}
	keys.bell.await(t, "the new shortcut", func() bool { return keys.has("Shift+Super+Y") && !keys.has(hotkey.Default) })
	if kb := readFile(t, dir).Keyboard; kb.Shortcut != "Shift+Super+Y" {
		t.Fatalf("saved %+v", kb)
	}
	// Not a shortcut: refused, naming the field.
	if res := save("r2", view.KeyboardForm{Shortcut: "Y"}); res["ok"] != false || res["field"] != "keyboard.shortcut" {
		t.Fatalf("bare key: %v", res)
	}
	// Taken by another app: saved, and the settings window says so.
	if res := save("r3", view.KeyboardForm{Shortcut: "Ctrl+Alt+K"}); res["ok"] != true {
		t.Fatalf("save: %v", res)
	}
	sp.wait(t, "the note", func(_ []map[string]any, l map[string]map[string]any) bool {
		kb, _ := l["settings_state"]["keyboard"].(map[string]any)
		n, _ := kb["note"].(string)
		return strings.Contains(n, "Ctrl+Alt+K is already used by another app")
	})
	// Off: nothing grabbed.
	if res := save("r4", view.KeyboardForm{Shortcut: "Ctrl+Alt+Y", ShortcutOff: true}); res["ok"] != true {
		t.Fatalf("save: %v", res)
	}
	keys.bell.await(t, "nothing grabbed", func() bool { return !keys.has("Shift+Super+Y") && !keys.has(hotkey.Default) })
	if kb := readFile(t, dir).Keyboard; kb != (settings.Keyboard{ShortcutOff: true}) {
		t.Fatalf("saved %+v", kb)
	}
}
