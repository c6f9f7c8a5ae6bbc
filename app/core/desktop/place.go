package desktop

import (
	"image"
	"sync"

	"yui/app/core/windows"
	"yui/app/place"
	"yui/app/settings"
	"yui/app/view"
)

// Where the windows go (docs/desktop.md, "Where she is"). The geometry is
// app/place; this file feeds it the monitors present now and the saved
// positions, saves what it decides and tells the shells.

var petSize = image.Pt(windows.PetWidth, windows.PetHeight)

// PetBody is the character's box inside her window (window pixels, the
// composer closed): the 180×216 figure centred above the 26 px dock and
// the 14 px bottom padding (frontend/src/style.css). A drag keeps a third
// of this box on a monitor, not a third of the window's see-through
// margins.
var PetBody = windows.PetBody

// monitors are the monitors' bounds now (primary first); nil when the
// room cannot list them (no display: positions are then kept as saved).
func (r *Room) monitors() []image.Rectangle {
	ms, err := r.cfg.Screen.Monitors()
	if err != nil {
		r.log.Warn("monitors_unavailable", "err", err.Error())
		return nil
	}
	out := make([]image.Rectangle, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.Bounds)
	}
	return out
}

// petRects are the windows of the enabled characters other than skip, at
// their saved places (clamped as they will show).
func petRects(all settings.Settings, skip string, mons []image.Rectangle) []image.Rectangle {
	var rs []image.Rectangle
	for _, p := range all.Presets {
		if p.ID == skip || !p.Enabled || p.Window == nil {
			continue
		}
		at := place.Restore(image.Pt(p.Window.X, p.Window.Y), petSize, mons)
		rs = append(rs, image.Rectangle{Min: at, Max: at.Add(petSize)})
	}
	return rs
}

// PetPosition is where preset id's window opens: its saved place clamped
// to the monitors present now, or, never placed, beside the other
// characters from the bottom-right of the primary monitor. A changed place
// is saved. ok is false when no monitor is known and nothing was saved
// (the window manager places it).
func (r *Room) PetPosition(id string) (image.Point, bool) {
	r.placeMu.Lock()
	defer r.placeMu.Unlock()
	mons := r.monitors()
	all := r.cfg.Store.Get()
	p, found := all.Preset(id)
	if !found {
		return image.Point{}, false
	}
	var at image.Point
	how := "restored"
	switch {
	case p.Window != nil:
		saved := image.Pt(p.Window.X, p.Window.Y)
		at = place.Restore(saved, petSize, mons)
		if at != saved {
			how = "clamped"
			r.log.Info("window_clamped", "preset", id, "saved_x", saved.X, "saved_y", saved.Y, "x", at.X, "y", at.Y)
		}
	case len(mons) == 0:
		return image.Point{}, false
	default:
		// Clear of the settings window too, when it is open: a character
		// is most often added from it (issue 21).
		at = place.BesideClearOf(petSize, mons, petRects(all, id, mons), r.settingsRects())
		how = "placed"
	}
	if how != "restored" {
		r.save(id, at)
	}
	r.log.Info("window_placed", "preset", id, "x", at.X, "y", at.Y, "how", how)
	return at, true
}

// save saves preset id's window position.
func (r *Room) save(id string, at image.Point) bool {
	err := r.cfg.Store.Update(func(s *settings.Settings) {
		for i := range s.Presets {
			if s.Presets[i].ID == id {
				s.Presets[i].Window = &settings.Position{X: at.X, Y: at.Y}
			}
		}
	})
	if err != nil {
		r.log.Error("settings_save_failed", "err", err.Error())
		return false
	}
	return true
}

// Moved handles a pet window's reported position: a place that leaves
// less than a third of her on the monitors is corrected (the shell moves
// the window back); the place is saved.
func (r *Room) Moved(id string, wp view.WindowPosition) {
	r.placeMu.Lock()
	at := image.Pt(wp.X, wp.Y)
	keep := place.KeepThird(at, PetBody, r.monitors())
	r.placeMu.Unlock()
	if keep != at {
		r.log.Info("window_kept_on_screen", "preset", id, "x", wp.X, "y", wp.Y, "to_x", keep.X, "to_y", keep.Y)
		r.move(id, keep)
	}
	if r.save(id, keep) {
		r.log.Info("window_moved", "preset", id, "x", keep.X, "y", keep.Y)
	}
}

// move tells preset id's shell to move its window to at.
func (r *Room) move(id string, at image.Point) {
	r.cfg.Pages.Send(view.RoleShell, id, view.MustEncode(view.TypeWindowMove, view.WindowPosition{X: at.X, Y: at.Y}))
}

// ResetPosition puts preset id's character at the bottom-right of the
// primary monitor (beside the other characters when one stands there),
// saves the place and moves her window. What the pet menu's and the
// tray's Reset position do. Unknown ids and a room that knows no monitor
// are logged and ignored.
func (r *Room) ResetPosition(id string) {
	r.placeMu.Lock()
	mons := r.monitors()
	all := r.cfg.Store.Get()
	if _, ok := all.Preset(id); !ok || len(mons) == 0 {
		r.placeMu.Unlock()
		r.log.Warn("window_reset_refused", "preset", id, "monitors", len(mons))
		return
	}
	at := place.Beside(petSize, mons, petRects(all, id, mons))
	r.save(id, at)
	r.placeMu.Unlock()
	r.log.Info("window_reset", "preset", id, "x", at.X, "y", at.Y)
	r.move(id, at)
}

// ResetPositions puts every enabled character back: the main one at the
// bottom-right of the primary monitor, the others beside her in the
// settings' order (the tray's Reset positions).
func (r *Room) ResetPositions() {
	r.placeMu.Lock()
	mons := r.monitors()
	if len(mons) == 0 {
		r.placeMu.Unlock()
		r.log.Warn("window_reset_refused", "monitors", 0)
		return
	}
	all := r.cfg.Store.Get()
	order := make([]string, 0, len(all.Presets))
	for _, p := range all.Presets {
		if p.Enabled && p.ID == all.ActivePreset {
			order = append(order, p.ID)
		}
	}
	for _, p := range all.Presets {
		if p.Enabled && p.ID != all.ActivePreset {
			order = append(order, p.ID)
		}
	}
	var taken []image.Rectangle
	moves := map[string]image.Point{}
	for _, id := range order {
		at := place.Beside(petSize, mons, taken)
		taken = append(taken, image.Rectangle{Min: at, Max: at.Add(petSize)})
		moves[id] = at
		r.save(id, at)
	}
	r.placeMu.Unlock()
	for _, id := range order {
		r.log.Info("window_reset", "preset", id, "x", moves[id].X, "y", moves[id].Y)
		r.move(id, moves[id])
	}
}

// SettingsPosition is where a window of size opens (the settings
// window): where no shown character covers it (place.Away); ok false when
// no monitor is known.
func (r *Room) SettingsPosition(size image.Point) (image.Point, bool) {
	r.placeMu.Lock()
	defer r.placeMu.Unlock()
	mons := r.monitors()
	if len(mons) == 0 {
		return image.Point{}, false
	}
	all := r.cfg.Store.Get()
	var pets []image.Rectangle
	for _, p := range all.Presets {
		if p.Enabled && p.Window != nil && !r.Hidden(p.ID) {
			pets = append(pets, image.Rect(p.Window.X, p.Window.Y, p.Window.X+windows.PetWidth, p.Window.Y+windows.PetHeight))
		}
	}
	return place.Away(size, mons, pets), true
}

// The settings window, for a new character to keep clear of (issue 21: a
// character saved from it landed over its Save and Revert corner). The
// room knows where the window was opened and whether it is shown; the
// window list (Config.WindowList) says where it is now, should the user
// have moved or resized it.

// settingsWindow is whether the settings window is shown and where it
// was opened (nil: where the window manager put it).
type settingsWindow struct {
	mu    sync.Mutex
	shown bool
	at    *image.Point
}

// SettingsOpened records that the settings window's shell connected: the
// window opens shown, at at (ok false: where the window manager puts it).
func (r *Room) SettingsOpened(at image.Point, ok bool) {
	r.settings.mu.Lock()
	defer r.settings.mu.Unlock()
	r.settings.shown, r.settings.at = true, nil
	if ok {
		r.settings.at = &at
	}
}

// SettingsShown records that the hidden settings window was shown again.
func (r *Room) SettingsShown() {
	r.settings.mu.Lock()
	r.settings.shown = true
	r.settings.mu.Unlock()
}

// SettingsHidden records that the settings window was closed (hidden).
func (r *Room) SettingsHidden() {
	r.settings.mu.Lock()
	r.settings.shown = false
	r.settings.mu.Unlock()
}

// settingsRects is the settings window's box while it is shown (none
// otherwise): as the window list has it, else where it was opened.
func (r *Room) settingsRects() []image.Rectangle {
	r.settings.mu.Lock()
	shown, at := r.settings.shown, r.settings.at
	r.settings.mu.Unlock()
	if !shown {
		return nil
	}
	if ws, err := r.cfg.WindowList.Windows(); err == nil {
		for _, w := range ws {
			if w.Title == windows.SettingsTitle && !w.Hidden && !w.Rect.Empty() {
				return []image.Rectangle{w.Rect}
			}
		}
	}
	if at == nil {
		return nil
	}
	return []image.Rectangle{{Min: *at, Max: at.Add(image.Pt(windows.SettingsWidth, windows.SettingsHeight))}}
}
