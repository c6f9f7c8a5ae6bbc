package core

import (
	"yui/app/core/ear"
)

// Ear is the microphone every character shares (the tray's Listen).
func (c *Core) Ear() *ear.Room { return c.ear }

// earHost is what the ear asks of the core.
type earHost struct{ c *Core }

func (h earHost) Character(id string) ear.Character {
	if pt := h.c.pet(id); pt != nil {
		return pt
	}
	return nil
}

func (h earHost) Characters() []ear.Character { return each[ear.Character](h.c) }

var _ ear.Character = (*pet)(nil)
