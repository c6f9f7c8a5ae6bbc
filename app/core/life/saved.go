package life

import (
	"image"

	"yui/app/settings"
)

// Saved is the Host the core gives the room: her window's place as the
// settings keep it (the desktop room saves each move).
type Saved struct {
	Store interface{ Get() settings.Settings }
}

// Place is preset id's saved window place.
func (s Saved) Place(id string) (image.Point, bool) {
	all := s.Store.Get()
	p, ok := all.Preset(id)
	if !ok || p.Window == nil {
		return image.Point{}, false
	}
	return image.Pt(p.Window.X, p.Window.Y), true
}

var _ Host = Saved{}
