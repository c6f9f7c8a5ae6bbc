package perch

import (
	"context"
	"image"

	"yui/app/look"
)

// Change is what happened to a watched window.
type Change struct {
	// Frame is where the window is now, as the user sees it.
	Frame image.Rectangle
	// Gone: closed. Hidden: minimised or unmapped. Fullscreen: it covers
	// its monitor. Restacked: the stacking order changed (another window
	// may now cover it).
	Gone, Hidden, Fullscreen, Restacked bool
}

// Desktop lists the windows and watches one.
type Desktop interface {
	// Windows lists the top-level windows, bottom to top when known.
	Windows() ([]look.Window, error)
	// Watch calls fn, one call at a time, at each change of window id
	// until ctx ends or the window is gone (after a Gone change). It
	// returns the error that ended it (ctx's when cancelled).
	Watch(ctx context.Context, id uint64, fn func(Change)) error
}
