package core

import (
	"yui/app/clientctx"
	"yui/app/view"
)

// wardrobeHost is what the wardrobe asks of the core.
type wardrobeHost struct{ c *Core }

func (h wardrobeHost) StartTouchTurn(id string, trigger clientctx.Trigger) {
	if pt := h.c.pet(id); pt != nil {
		pt.sess.StartTurn("", trigger)
	}
}

func (h wardrobeHost) LooksChanged() { h.c.sui.PublishState() }

func (h wardrobeHost) PublishArt(id, look string) {
	h.c.view.Publish(id, view.TypeLookArt, view.MustEncode(view.TypeLookArt, h.c.looks.Art(look)))
}
