package desktop

import (
	"fmt"

	"yui/app/core/windows"
	"yui/app/view"
)

// SetShown shows or hides preset id's character. Hiding stops her window
// process (her session stays connected and keeps her history; the memory
// of the window is freed); showing is ShowPet. Hidden is not saved: the
// next start shows every enabled character. An id with no running
// character is ignored.
func (r *Room) SetShown(id string, shown bool) {
	if !r.cfg.Host.HasPet(id) {
		r.log.Warn("desktop_unknown_preset", "preset", id)
		return
	}
	if shown {
		if err := r.ShowPet(id); err != nil {
			r.log.Warn("window_show_failed", "preset", id, "err", err.Error())
		}
		return
	}
	r.mu.Lock()
	was := !r.hidden[id]
	r.hidden[id] = true
	r.mu.Unlock()
	if was {
		r.log.Info("pet_hidden", "preset", id)
		r.cfg.Windows.StopOne(windows.Pet(id))
		// The shell quits when its connection ends, at once.
		r.cfg.Pages.Disconnect(view.RoleShell, id)
	}
	r.Changed()
}

// ShowPet brings preset id's pet window back on screen: a character the
// user hid (tray, pet menu) is shown again; a window the supervisor gave
// up on (it crashed GiveUpCount times in a minute) starts again at once
// with a fresh budget; one that is not running starts; a running one is
// shown and raised (window_show). It is what the tray's per-character
// entry, the settings window's "show" and a page's show_window call, and
// a second `yui` launch (ShowWindows). Safe from any goroutine.
//
// It returns an error for a preset with no running character (unknown or
// switched off). Without window processes (--no-windows), before Run has
// started the windows, or while quitting, it only clears hidden.
func (r *Room) ShowPet(id string) error {
	if !r.cfg.Host.HasPet(id) {
		return fmt.Errorf("desktop: show %q: no such character is shown", id)
	}
	r.mu.Lock()
	wasHidden := r.hidden[id]
	delete(r.hidden, id)
	r.mu.Unlock()
	if wasHidden {
		r.log.Info("pet_shown", "preset", id)
		defer r.Changed()
	}
	r.cfg.Host.Hold(func(windows bool) {
		if windows && r.cfg.Host.HasPet(id) {
			r.showWindow(id)
		}
	})
	return nil
}

// showWindow revives, starts or raises preset id's window. Call under
// Host.Hold.
func (r *Room) showWindow(id string) {
	name := windows.Pet(id)
	if r.cfg.Windows.Revive(name) {
		r.log.Info("window_show", "window", name, "how", "revived")
		return
	}
	all := r.cfg.Store.Get()
	p, ok := all.Preset(id)
	if ok && p.Enabled && r.cfg.Windows.Run(r.cfg.Host.PetSpec(p)) {
		// Not supervised (it was stopped or hidden): started afresh.
		r.log.Info("window_show", "window", name, "how", "started")
		return
	}
	r.cfg.Pages.Send(view.RoleShell, id, view.MustEncode(view.TypeWindowShow, struct{}{}))
	r.log.Info("window_show", "window", name, "how", "raised")
}

// ShowWindows shows every running character's window (ShowPet for each,
// hidden ones included): what a plain second `yui` launch does.
func (r *Room) ShowWindows() {
	for _, id := range r.cfg.Host.PetIDs() {
		if err := r.ShowPet(id); err != nil {
			r.log.Warn("window_show_failed", "preset", id, "err", err.Error())
		}
	}
	r.log.Info("pets_shown")
}

// StartWindows starts the pet windows of the enabled characters the user
// has not hidden (Run's start; the caller holds what Host.Hold holds).
func (r *Room) StartWindows() {
	for _, p := range r.cfg.Store.Get().Presets {
		if p.Enabled && !r.Hidden(p.ID) {
			r.cfg.Windows.Run(r.cfg.Host.PetSpec(p))
		}
	}
}
