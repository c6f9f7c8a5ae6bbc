package core

import (
	"yui/app/core/desktop"
)

// Desktop is the desktop room: hide and show, quit, start at login, the
// global shortcut, placement (what the tray and a second launch use).
func (c *Core) Desktop() *desktop.Room { return c.desk }

// newDesktop makes the desktop room on the running characters.
func (c *Core) newDesktop() *desktop.Room {
	opts := c.opts
	return desktop.New(desktop.Config{Store: c.store, Pages: c.view, Windows: c.sup, Host: desktop.Cast{
		Has: func(id string) bool { return c.pet(id) != nil }, IDs: c.pets.IDs, Spec: c.wins.PetSpec, Holder: c.hold,
		Mute: func(on bool) error { return c.voices.SetMuted(on) }, OnChange: c.updateGaze},
		Screen: opts.Screen, Autostart: opts.Autostart, Hotkeys: opts.Hotkeys, WindowList: opts.WindowList, Logger: c.log})
}

// hold runs fn under applyMu: no save starts or stops a character, and
// Run neither starts nor stops the windows, meanwhile; windows is false
// when window processes do not run now.
func (c *Core) hold(fn func(windows bool)) {
	c.applyMu.Lock()
	defer c.applyMu.Unlock()
	fn(!c.opts.NoWindows && c.pets.Started() && !c.stopping)
}
