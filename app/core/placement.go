package core

import (
	"image"
	"sync"

	"yui/app/look"
	"yui/app/place"
	"yui/app/settings"
	"yui/app/view"
)

// Where the windows go (docs/desktop.md, "Where she is"). The geometry is
// app/place; this file feeds it the monitors present now and the saved
// positions, saves what it decides and tells the shells.

// placer serializes placement decisions, so two windows connecting at once
// do not both take the same free spot.
type placer struct {
	mu sync.Mutex
}

var petSize = image.Pt(PetWidth, PetHeight)

// PetBody is the character's box inside her window (window pixels, the
// composer closed): the 180×216 figure centred above the 26 px dock and
// the 14 px bottom padding (frontend/src/style.css). A drag keeps a third
// of this box on a monitor, not a third of the window's see-through
// margins.
var PetBody = image.Rect(60, 164, 240, 380)

// monitors are the monitors' bounds now (primary first); nil when the core
// cannot list them (no display: positions are then kept as saved).
func (c *Core) monitors() []image.Rectangle {
	ms, err := c.screen.Monitors()
	if err != nil {
		c.log.Warn("monitors_unavailable", "err", err.Error())
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

// petPosition is where preset id's window opens: its saved place clamped
// to the monitors present now, or, never placed, beside the other
// characters from the bottom-right of the primary monitor. A changed place
// is saved. ok is false when no monitor is known and nothing was saved
// (the window manager places it).
func (c *Core) petPosition(id string) (image.Point, bool) {
	c.placer.mu.Lock()
	defer c.placer.mu.Unlock()
	mons := c.monitors()
	all := c.store.Get()
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
			c.log.Info("window_clamped", "preset", id, "saved_x", saved.X, "saved_y", saved.Y, "x", at.X, "y", at.Y)
		}
	case len(mons) == 0:
		return image.Point{}, false
	default:
		// Clear of the settings window too, when it is open: a character
		// is most often added from it (issue 21).
		at = place.BesideClearOf(petSize, mons, petRects(all, id, mons), c.settingsRects())
		how = "placed"
	}
	if how != "restored" {
		c.storePosition(id, at)
	}
	c.log.Info("window_placed", "preset", id, "x", at.X, "y", at.Y, "how", how)
	return at, true
}

// storePosition saves preset id's window position.
func (c *Core) storePosition(id string, at image.Point) {
	err := c.store.Update(func(s *settings.Settings) {
		for i := range s.Presets {
			if s.Presets[i].ID == id {
				s.Presets[i].Window = &settings.Position{X: at.X, Y: at.Y}
			}
		}
	})
	if err != nil {
		c.log.Error("settings_save_failed", "err", err.Error())
	}
}

// moved handles a pet window's reported position: a place that leaves
// less than a third of her on the monitors is corrected (the shell moves
// the window back); the place is saved.
func (c *Core) moved(id string, wp view.WindowPosition) {
	c.placer.mu.Lock()
	at := image.Pt(wp.X, wp.Y)
	keep := place.KeepThird(at, PetBody, c.monitors())
	c.placer.mu.Unlock()
	if keep != at {
		c.log.Info("window_kept_on_screen", "preset", id, "x", wp.X, "y", wp.Y, "to_x", keep.X, "to_y", keep.Y)
		c.moveWindow(id, keep)
	}
	c.savePosition(id, view.WindowPosition{X: keep.X, Y: keep.Y})
}

// moveWindow tells preset id's shell to move its window to at.
func (c *Core) moveWindow(id string, at image.Point) {
	c.view.Send(view.RoleShell, id, view.MustEncode(view.TypeWindowMove, view.WindowPosition{X: at.X, Y: at.Y}))
}

// ResetPosition puts preset id's character at the bottom-right of the
// primary monitor (beside the other characters when one stands there),
// saves the place and moves her window. What the pet menu's and the
// tray's Reset position do. Unknown ids and a core that knows no monitor
// are logged and ignored.
func (c *Core) ResetPosition(id string) {
	c.placer.mu.Lock()
	mons := c.monitors()
	all := c.store.Get()
	if _, ok := all.Preset(id); !ok || len(mons) == 0 {
		c.placer.mu.Unlock()
		c.log.Warn("window_reset_refused", "preset", id, "monitors", len(mons))
		return
	}
	at := place.Beside(petSize, mons, petRects(all, id, mons))
	c.storePosition(id, at)
	c.placer.mu.Unlock()
	c.log.Info("window_reset", "preset", id, "x", at.X, "y", at.Y)
	c.moveWindow(id, at)
}

// settingsPosition is where the settings window opens: where no pet
// covers it (place.Away); ok false when no monitor is known.
func (c *Core) settingsPosition() (image.Point, bool) {
	c.placer.mu.Lock()
	defer c.placer.mu.Unlock()
	mons := c.monitors()
	if len(mons) == 0 {
		return image.Point{}, false
	}
	all := c.store.Get()
	var pets []image.Rectangle
	for _, p := range all.Presets {
		if p.Enabled && p.Window != nil && !c.hidden(p.ID) {
			pets = append(pets, image.Rect(p.Window.X, p.Window.Y, p.Window.X+PetWidth, p.Window.Y+PetHeight))
		}
	}
	return place.Away(image.Pt(SettingsWidth, SettingsHeight), mons, pets), true
}

// The settings window, for a new character to keep clear of (issue 21: a
// character saved from it landed over its Save and Revert corner). The
// core knows where it opened the window and whether it is shown; the
// window list (Options.WindowList, the X server's) says where it is now,
// should the user have moved or resized it.

// settingsOpened records that the settings window's shell connected: the
// window opens shown, at at (ok false: where the window manager puts it).
func (c *Core) settingsOpened(at image.Point, ok bool) {
	c.settingsWin.mu.Lock()
	defer c.settingsWin.mu.Unlock()
	c.settingsWin.shown = true
	c.settingsWin.at = nil
	if ok {
		c.settingsWin.at = &at
	}
}

// settingsRects is the settings window's box while it is shown (none
// otherwise): as the window list has it, else where the core opened it.
func (c *Core) settingsRects() []image.Rectangle {
	c.settingsWin.mu.Lock()
	shown, at := c.settingsWin.shown, c.settingsWin.at
	c.settingsWin.mu.Unlock()
	if !shown {
		return nil
	}
	list := c.opts.WindowList
	if list == nil {
		list = look.X11Windows{}
	}
	if ws, err := list.Windows(); err == nil {
		for _, w := range ws {
			if w.Title == settingsTitle && !w.Hidden && !w.Rect.Empty() {
				return []image.Rectangle{w.Rect}
			}
		}
	}
	if at == nil {
		return nil
	}
	return []image.Rectangle{{Min: *at, Max: at.Add(image.Pt(SettingsWidth, SettingsHeight))}}
}

// ResetPositions puts every enabled character back: the main one at the
// bottom-right of the primary monitor, the others beside her in the
// settings' order (the tray's Reset positions).
func (c *Core) ResetPositions() {
	c.placer.mu.Lock()
	mons := c.monitors()
	if len(mons) == 0 {
		c.placer.mu.Unlock()
		c.log.Warn("window_reset_refused", "monitors", 0)
		return
	}
	all := c.store.Get()
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
		c.storePosition(id, at)
	}
	c.placer.mu.Unlock()
	for _, id := range order {
		c.log.Info("window_reset", "preset", id, "x", moves[id].X, "y", moves[id].Y)
		c.moveWindow(id, moves[id])
	}
}
