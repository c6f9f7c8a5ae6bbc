package core

import (
	"image"

	"yui/app/core/gaze"
)

// gazeWindow is preset id's window on the screen for the gaze room
// (gaze.WindowRect). ok is false while she is hidden or was never placed.
func (c *Core) gazeWindow(id string) (image.Rectangle, bool) {
	if c.desk.Hidden(id) {
		return image.Rectangle{}, false
	}
	all := c.store.Get()
	p, found := all.Preset(id)
	if !found {
		return image.Rectangle{}, false
	}
	return gaze.WindowRect(p.Window, c.life.Body(id))
}
