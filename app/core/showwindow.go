package core

import (
	"fmt"

	"yui/app/view"
)

// ShowPet brings preset id's pet window back on screen: a character the
// user hid (tray, pet menu) is shown again; a window the supervisor gave up
// on (it crashed GiveUpCount times in a minute) starts again at once with a
// fresh budget; one that is not running starts; a running one is shown and
// raised (window_show). It is what the tray's per-character entry, the
// settings window's "show" and a page's show_window call, and a second
// `yui` launch (ShowWindows). Safe from any goroutine.
//
// It returns an error for a preset with no running character (unknown or
// switched off). Without window processes (--no-windows), before Run has
// started the windows, or while quitting, it only clears hidden.
func (c *Core) ShowPet(id string) error {
	if c.pet(id) == nil {
		return fmt.Errorf("core: show %q: no such character is shown", id)
	}
	c.desk.mu.Lock()
	wasHidden := c.desk.hidden[id]
	delete(c.desk.hidden, id)
	c.desk.mu.Unlock()
	if wasHidden {
		c.log.Info("pet_shown", "preset", id)
		defer c.desktopChanged()
	}
	c.applyMu.Lock()
	defer c.applyMu.Unlock()
	c.petsMu.Lock()
	started := c.started
	c.petsMu.Unlock()
	if c.opts.NoWindows || !started || c.stopping || c.pet(id) == nil {
		return nil
	}
	name := "pet:" + id
	switch {
	case c.sup.Revive(name):
		c.log.Info("window_show", "window", name, "how", "revived")
	default:
		p, ok := c.presetNow(id)
		if ok && p.Enabled && c.sup.Run(c.petSpec(p)) {
			// Not supervised (it was stopped or hidden): started afresh.
			c.log.Info("window_show", "window", name, "how", "started")
			return nil
		}
		c.view.Send(view.RoleShell, id, view.MustEncode(view.TypeWindowShow, struct{}{}))
		c.log.Info("window_show", "window", name, "how", "raised")
	}
	return nil
}

// ShowWindows shows every running character's window (ShowPet for each,
// hidden ones included): what a plain second `yui` launch does.
func (c *Core) ShowWindows() {
	for _, id := range c.petIDs() {
		if err := c.ShowPet(id); err != nil {
			c.log.Warn("window_show_failed", "preset", id, "err", err.Error())
		}
	}
	c.log.Info("pets_shown")
}
