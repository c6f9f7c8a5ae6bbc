package core

import (
	"yui/app/core/desktop"
	"yui/app/settings"
	"yui/app/supervisor"
)

// Desktop is the desktop room: hide and show, quit, start at login, the
// global shortcut, placement (what the tray and a second launch use).
func (c *Core) Desktop() *desktop.Room { return c.desk }

// deskHost is what the desktop room asks of the core.
type deskHost struct{ c *Core }

func (h deskHost) HasPet(id string) bool                     { return h.c.pet(id) != nil }
func (h deskHost) PetIDs() []string                          { return h.c.pets.IDs() }
func (h deskHost) PetSpec(p settings.Preset) supervisor.Spec { return h.c.wins.PetSpec(p) }
func (h deskHost) SetMuted(on bool) error                    { return h.c.voices.SetMuted(on) }
func (h deskHost) Changed()                                  { h.c.updateGaze() }

// Hold runs fn under applyMu: no save starts or stops a character, and
// Run neither starts nor stops the windows, meanwhile.
func (h deskHost) Hold(fn func(windows bool)) {
	c := h.c
	c.applyMu.Lock()
	defer c.applyMu.Unlock()
	fn(!c.opts.NoWindows && c.pets.Started() && !c.stopping)
}
