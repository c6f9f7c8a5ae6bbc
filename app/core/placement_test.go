package core

import (
	"context"
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"yui/app/capture"
	"yui/app/look"
	"yui/app/lookfolder"
	"yui/app/place"
	"yui/app/settings"
	"yui/app/view"
)

// screen1280 is one 1280×800 monitor.
func screen1280() *capture.Fixed {
	return &capture.Fixed{Screens: []capture.Monitor{{Index: 0, Label: "screen", Bounds: image.Rect(0, 0, 1280, 800)}}}
}

// windowConfig reads a shell's window_config.
func windowConfig(t *testing.T, shell *websocket.Conn) view.WindowConfig {
	t.Helper()
	_, b, err := shell.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var cfg view.WindowConfig
	if err := json.Unmarshal(b, &cfg); err != nil || cfg.Kind == "" {
		t.Fatalf("window config %s: %v", b, err)
	}
	return cfg
}

// nextMove reads the shell's next message, which must be a window_move.
func nextMove(t *testing.T, shell *websocket.Conn) image.Point {
	t.Helper()
	_, b, err := shell.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Type string `json:"type"`
		X, Y int
	}
	json.Unmarshal(b, &m)
	if m.Type != view.TypeWindowMove {
		t.Fatalf("shell got %s, want a window_move", b)
	}
	return image.Pt(m.X, m.Y)
}

func TestRestoredPositionIsClampedToTheMonitorsNow(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	// Saved on a larger screen; relaunched on 1280×800 (issue 16).
	s.Update(func(x *settings.Settings) { x.Presets[0].Window = &settings.Position{X: 1769, Y: 809} })
	st := startCore(t, Options{ConfigDir: dir, Screen: screen1280()})
	p := st.c.Settings().Get().Presets[0]
	cfg := windowConfig(t, st.dial(t, view.RoleShell, p.ID))
	if cfg.X == nil || *cfg.X != 1280-PetWidth || *cfg.Y != 800-PetHeight {
		t.Fatalf("window at %v,%v, want %d,%d", deref(cfg.X), deref(cfg.Y), 1280-PetWidth, 800-PetHeight)
	}
	if w := readFile(t, dir).Presets[0].Window; w == nil || w.X != 1280-PetWidth || w.Y != 800-PetHeight {
		t.Fatalf("the clamped place is not saved: %+v", w)
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestFirstRunPlacesHerBottomRightAndANewCharacterBeside(t *testing.T) {
	dir := t.TempDir()
	st := startCore(t, Options{ConfigDir: dir, Screen: screen1280()})
	all := st.c.Settings().Get()
	first := windowConfig(t, st.dial(t, view.RoleShell, all.Presets[0].ID))
	want := place.BottomRight(image.Rect(0, 0, 1280, 800), image.Pt(PetWidth, PetHeight))
	if first.X == nil || *first.X != want.X || *first.Y != want.Y {
		t.Fatalf("first run: %v,%v, want the bottom-right %v", deref(first.X), deref(first.Y), want)
	}
	// The first-run tip.
	conn := st.dial(t, view.RolePet, all.Presets[0].ID)
	page := readPage(conn)
	page.wait(t, "the first-run tip", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["notice"] != nil && l["notice"]["id"] == "first_run_tip"
	})
	if txt := page.last("notice")["text"].(string); !strings.Contains(txt, "Click me to talk · right-click for settings") || !strings.Contains(txt, "which app") {
		t.Fatalf("tip %q", txt)
	}
	// Talking to her takes the tip away.
	send(t, conn, map[string]any{"type": "send_text", "text": "hi"})
	page.wait(t, "the tip gone", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["notice"]["id"] == "first_run_tip" && l["notice"]["text"] == ""
	})
	a := image.Rect(*first.X, *first.Y, *first.X+PetWidth, *first.Y+PetHeight)
	// The settings window opens where she does not cover it.
	shell := st.dial(t, view.RoleShell, "")
	sw := windowConfig(t, shell)
	if r := image.Rect(*sw.X, *sw.Y, *sw.X+SettingsWidth, *sw.Y+SettingsHeight); r.Overlaps(a) || !r.In(image.Rect(0, 0, 1280, 800)) {
		t.Fatalf("the settings window %v covers her (%v) or is off screen", r, a)
	}
	// Closed (hidden), it is nothing to keep clear of.
	send(t, shell, map[string]any{"type": view.TypeWindowHidden})
	waitFor(t, "the settings window hidden", func() bool { return len(st.c.settingsRects()) == 0 })
	// A second character: beside the first, not on top.
	st.c.Settings().Update(func(x *settings.Settings) { x.Presets = append(x.Presets, settings.NewPreset("Mio")) })
	mio := st.c.Settings().Get().Presets[1].ID
	second := windowConfig(t, st.dial(t, view.RoleShell, mio))
	b := image.Rect(*second.X, *second.Y, *second.X+PetWidth, *second.Y+PetHeight)
	if a.Overlaps(b) || !b.In(image.Rect(0, 0, 1280, 800)) || b.Min.Y != a.Min.Y {
		t.Fatalf("the second character at %v overlaps the first at %v, is off screen or not beside her", b, a)
	}
}

// listedWindows is a window list that says where the settings window is.
type listedWindows struct{ settings image.Rectangle }

func (l listedWindows) Windows() ([]look.Window, error) {
	return []look.Window{{App: "yui", Title: "Yui — Settings", Rect: l.settings}}, nil
}

// Issue 21: a character saved from the settings window landed over its
// Save and Revert corner. While the window is shown a new character keeps
// clear of it — where the core opened it, or where the window list says it
// was moved to — and of the first character's figure.
func TestANewCharacterKeepsClearOfTheOpenSettingsWindow(t *testing.T) {
	screen := image.Rect(0, 0, 1280, 800)
	for _, c := range []struct {
		name  string
		moved image.Rectangle // the window list's settings window; empty: the list knows none
	}{
		{"where the core opened it", image.Rectangle{}},
		{"moved by the user", image.Rect(420, 230, 1180, 790)},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := Options{Screen: screen1280(), WindowList: listedWindows{}}
			if !c.moved.Empty() {
				opts.WindowList = listedWindows{settings: c.moved}
			}
			st := startCore(t, opts)
			all := st.c.Settings().Get()
			first := windowConfig(t, st.dial(t, view.RoleShell, all.Presets[0].ID))
			yui := image.Rect(*first.X, *first.Y, *first.X+PetWidth, *first.Y+PetHeight)
			sw := windowConfig(t, st.dial(t, view.RoleShell, ""))
			settingsBox := image.Rect(*sw.X, *sw.Y, *sw.X+SettingsWidth, *sw.Y+SettingsHeight)
			if !c.moved.Empty() {
				settingsBox = c.moved
			}
			st.c.Settings().Update(func(x *settings.Settings) { x.Presets = append(x.Presets, settings.NewPreset("Mio")) })
			mio := windowConfig(t, st.dial(t, view.RoleShell, st.c.Settings().Get().Presets[1].ID))
			got := image.Rect(*mio.X, *mio.Y, *mio.X+PetWidth, *mio.Y+PetHeight)
			if got.Overlaps(settingsBox) || !got.In(screen) {
				t.Fatalf("the new character at %v covers the settings window at %v (or is off screen)", got, settingsBox)
			}
			if PetBody.Add(got.Min).Overlaps(PetBody.Add(yui.Min)) {
				t.Fatalf("the new character at %v stands on the first one's figure (%v)", got, yui)
			}
			if w := readFile(t, st.c.opts.ConfigDir).Presets[1].Window; w == nil || w.X != got.Min.X || w.Y != got.Min.Y {
				t.Fatalf("her place is not saved: %+v", w)
			}
		})
	}
}

func TestADragKeepsAThirdOnScreenAndResetPositionBringsHerBack(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) { x.Presets[0].Window = &settings.Position{X: 100, Y: 100} })
	st := startCore(t, Options{ConfigDir: dir, Screen: screen1280()})
	p := st.c.Settings().Get().Presets[0]
	shell := st.dial(t, view.RoleShell, p.ID)
	windowConfig(t, shell)
	// Within bounds (half of her off the left edge): saved as is, no move.
	send(t, shell, map[string]any{"type": "window_position", "x": -150, "y": 200})
	waitFor(t, "the position saved", func() bool {
		w := readFile(t, dir).Presets[0].Window
		return w != nil && w.X == -150 && w.Y == 200
	})
	// Dragged almost off the left edge: moved back to show a third of her.
	send(t, shell, map[string]any{"type": "window_position", "x": -220, "y": 200})
	wantX := -(PetBody.Max.X - (PetBody.Dx()+2)/3)
	if got := nextMove(t, shell); got != image.Pt(wantX, 200) {
		t.Fatalf("moved back to %v, want (%d,200)", got, wantX)
	}
	waitFor(t, "the corrected position saved", func() bool {
		w := readFile(t, dir).Presets[0].Window
		return w != nil && w.X == wantX
	})
	// Reset position from the pet menu.
	page := st.dial(t, view.RolePet, p.ID)
	send(t, page, map[string]any{"type": "desktop_action", "action": "reset_position"})
	want := place.BottomRight(image.Rect(0, 0, 1280, 800), image.Pt(PetWidth, PetHeight))
	if got := nextMove(t, shell); got != want {
		t.Fatalf("reset to %v, want %v", got, want)
	}
	waitFor(t, "the reset position saved", func() bool {
		w := readFile(t, dir).Presets[0].Window
		return w != nil && w.X == want.X && w.Y == want.Y
	})
	// The tray's Reset positions.
	send(t, shell, map[string]any{"type": "window_position", "x": 10, "y": 10})
	waitFor(t, "moved", func() bool { return readFile(t, dir).Presets[0].Window.X == 10 })
	st.c.ResetPositions()
	if got := nextMove(t, shell); got != want {
		t.Fatalf("tray reset to %v, want %v", got, want)
	}
}

func TestLookFoldersAreOfferedAndRefusedOnesNameTheFile(t *testing.T) {
	dir := t.TempDir()
	svg := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4" fill="#123456"/></svg>`
	write := func(id string, files map[string]string) {
		os.MkdirAll(filepath.Join(dir, "looks", id), 0o755)
		for _, e := range lookfolder.Emotions {
			if _, ok := files[e+".svg"]; !ok {
				files[e+".svg"] = svg
			}
		}
		for n, b := range files {
			os.WriteFile(filepath.Join(dir, "looks", id, n), []byte(b), 0o644)
		}
	}
	write("mine", map[string]string{"look.json": `{"name":"Mine"}`})
	write("broken", map[string]string{"look.json": `{"name":"Broken"}`, "curious.svg": `<svg xmlns="http://www.w3.org/2000/svg"><image href="https://example.com/x.png"/></svg>`})
	st := startCore(t, Options{ConfigDir: dir, Screen: screen1280()})
	sp := readPage(st.dial(t, view.RoleSettings, ""))
	sp.wait(t, "settings state", func(_ []map[string]any, l map[string]map[string]any) bool { return l["settings_state"] != nil })
	looks := sp.last("settings_state")["choices"].(map[string]any)["looks"].([]any)
	byID := map[string]map[string]any{}
	for _, l := range looks {
		m := l.(map[string]any)
		byID[m["id"].(string)] = m
	}
	for _, id := range []string{"yui", "mika", "sora", "mine"} {
		if byID[id] == nil || byID[id]["available"] != true {
			t.Fatalf("look %s not offered: %v", id, looks)
		}
	}
	if b := byID["broken"]; b == nil || b["available"] != false || !strings.Contains(b["note"].(string), "looks/broken/curious.svg") {
		t.Fatalf("the broken look: %v", b)
	}
	// Choosing the folder look sends its art to the pet page.
	p := st.c.Settings().Get().Presets[0]
	page := readPage(st.dial(t, view.RolePet, p.ID))
	page.wait(t, "look_art (built-in)", func(_ []map[string]any, l map[string]map[string]any) bool { return l["look_art"] != nil })
	if e := page.last("look_art")["emotions"]; e != nil {
		t.Fatalf("a built-in look got art: %v", e)
	}
	save := func(look string) map[string]any {
		form := presetForm(st.c.Settings().Get().Presets[0])
		form.Look = look
		req := view.SaveSettings{RequestID: "r-" + look, ActivePreset: p.ID, Presets: []view.SavePreset{{PresetFields: form.PresetFields}}}
		st.c.saveSettings(req)
		var res map[string]any
		sp.wait(t, "the save's result", func(all []map[string]any, _ map[string]map[string]any) bool {
			for _, m := range all {
				if m["type"] == "settings_result" && m["request_id"] == "r-"+look {
					res = m
					return true
				}
			}
			return false
		})
		return res
	}
	if res := save("broken"); res["ok"] != false || !strings.Contains(res["error"].(string), "looks/broken/curious.svg") {
		t.Fatalf("choosing the broken look: %v", res)
	}
	if res := save("mine"); res["ok"] != true {
		t.Fatalf("choosing mine: %v", res)
	}
	page.wait(t, "the folder's art", func(_ []map[string]any, l map[string]map[string]any) bool {
		e, _ := l["look_art"]["emotions"].(map[string]any)
		u, _ := e["happy"].(string)
		return len(e) == 10 && strings.HasPrefix(u, "data:image/svg+xml;base64,")
	})
}
