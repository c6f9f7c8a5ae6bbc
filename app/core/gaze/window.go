package gaze

import (
	"image"

	"yui/app/body"
	"yui/app/core/windows"
	"yui/app/settings"
)

// WindowRect is her pet window's rectangle for a Follower's Window: while
// she moves (walks, falls, is dragged) where her body is now, which the
// life room updates at each step before anything is saved; otherwise where
// her settings place it (the desktop room saves each move). ok is false
// when neither says.
func WindowRect(saved *settings.Position, b body.State) (image.Rectangle, bool) {
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
