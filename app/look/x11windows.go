package look

import (
	"fmt"
	"image"

	"yui/app/x11"
)

// X11Windows reads the windows from the X server named Display ("" is
// $DISPLAY), opening a connection per call.
type X11Windows struct {
	Display string
}

// Windows lists the X server's top-level clients.
func (x X11Windows) Windows() ([]Window, error) {
	d, err := x11.Open(x.Display)
	if err != nil {
		return nil, fmt.Errorf("look: windows: %w", err)
	}
	defer d.Close()
	cs, err := d.Clients()
	if err != nil {
		return nil, fmt.Errorf("look: windows: %w", err)
	}
	out := make([]Window, len(cs))
	for i, c := range cs {
		out[i] = Window{App: c.App, Title: c.Title, PID: c.PID, Type: c.Type, Hidden: c.Hidden, ID: uint64(c.ID),
			Rect:  image.Rect(c.Rect.X, c.Rect.Y, c.Rect.X+c.Rect.W, c.Rect.Y+c.Rect.H),
			Frame: image.Rect(c.Frame.X, c.Frame.Y, c.Frame.X+c.Frame.W, c.Frame.Y+c.Frame.H), Fullscreen: c.Fullscreen}
	}
	return out, nil
}
