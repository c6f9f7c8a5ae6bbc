package core

import (
	"image"

	"yui/app/body"
	"yui/app/core/windows"
	"yui/app/settings"
)

// gazeWindow is preset id's window on the screen for the gaze room
// (windowRect). ok is false while she is hidden or was never placed.
func (c *Core) gazeWindow(id string) (image.Rectangle, bool) {
	if c.desk.Hidden(id) {
		return image.Rectangle{}, false
	}
	all := c.store.Get()
	p, found := all.Preset(id)
	if !found {
		return image.Rectangle{}, false
	}
	return windowRect(p.Window, c.life.Body(id))
}

// windowRect is her pet window's rectangle: while she moves (walks, falls,
// is dragged) where her body is now, which the life room updates at each
// step before anything is saved; otherwise where her settings place it
// (the desktop room saves each move). ok is false when neither says.
func windowRect(saved *settings.Position, b body.State) (image.Rectangle, bool) {
	var at image.Point
	switch {
	case b.Moving:
		at = b.At
	case saved != nil:
		at = image.Pt(saved.X, saved.Y)
	default:
		return image.Rectangle{}, false
	}
	return image.Rectangle{Min: at, Max: at.Add(image.Pt(windows.PetWidth, windows.PetHeight))}, true
}
