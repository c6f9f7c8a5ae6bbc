package core

import "yui/app/clientctx"

// wardrobeHost is what the wardrobe asks of the core.
type wardrobeHost struct{ c *Core }

func (h wardrobeHost) StartTouchTurn(id string, trigger clientctx.Trigger) {
	h.c.startTurn(id, "", trigger)
}
func (h wardrobeHost) LooksChanged() { h.c.sui.PublishState() }
