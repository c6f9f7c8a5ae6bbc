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

// PublishArt publishes look's art for preset id, with her own look
// options over the look's.
func (h wardrobeHost) PublishArt(id, look string) {
	art := h.c.looks.Art(look)
	all := h.c.store.Get()
	if p, ok := all.Preset(id); ok && art.VRM != nil {
		art.VRM.Breathing = p.LookOptions.BreathingOr(art.VRM.Breathing)
	}
	h.c.view.Publish(id, view.TypeLookArt, view.MustEncode(view.TypeLookArt, art))
}
