package core

import (
	"time"

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

// A pet is a character the ear hears and stops.

func (pt *pet) ID() string                               { return pt.preset }
func (pt *pet) Speaking(now time.Time) (bool, time.Time) { return pt.heard.Speaking(now) }
func (pt *pet) SendSpoken(text string)                   { pt.talk.UserSpoke(); pt.sess.SendSpoken(text) }
func (pt *pet) BargeIn()                                 { pt.sess.BargeIn() }

var _ ear.Character = (*pet)(nil)
