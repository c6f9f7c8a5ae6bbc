package core

import (
	"image"

	"yui/app/core/windows"
)

// gazeWindow is preset id's window on the screen for the gaze room: where
// her settings place it (the desktop room saves each move). ok is false
// while she is hidden or was never placed.
func (c *Core) gazeWindow(id string) (image.Rectangle, bool) {
	if c.desk.Hidden(id) {
		return image.Rectangle{}, false
	}
	all := c.store.Get()
	p, found := all.Preset(id)
	if !found || p.Window == nil {
		return image.Rectangle{}, false
	}
	at := image.Pt(p.Window.X, p.Window.Y)
	return image.Rectangle{Min: at, Max: at.Add(image.Pt(windows.PetWidth, windows.PetHeight))}, true
}
