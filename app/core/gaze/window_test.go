package gaze

import (
	"image"
	"testing"

	"yui/app/body"
	"yui/app/core/windows"
	"yui/app/settings"
)

// Her gaze follows her window while she walks: the body's place counts
// while she moves, the saved place otherwise.
func TestWindowRectFollowsHerWhileSheMoves(t *testing.T) {
	size := image.Pt(windows.PetWidth, windows.PetHeight)
	saved := &settings.Position{X: 900, Y: 500}
	for _, c := range []struct {
		name  string
		saved *settings.Position
		body  body.State
		at    image.Point
		ok    bool
	}{
		{"standing: the saved place", saved, body.State{At: image.Pt(10, 20)}, image.Pt(900, 500), true},
		{"walking: where her body is now", saved, body.State{At: image.Pt(640, 480), Moving: true}, image.Pt(640, 480), true},
		{"walking, never saved", nil, body.State{At: image.Pt(5, 6), Moving: true}, image.Pt(5, 6), true},
		{"never placed, still", nil, body.State{}, image.Point{}, false},
	} {
		r, ok := WindowRect(c.saved, c.body)
		if ok != c.ok || (ok && r != (image.Rectangle{Min: c.at, Max: c.at.Add(size)})) {
			t.Errorf("%s: WindowRect = %v, %v; want at %v, %v", c.name, r, ok, c.at, c.ok)
		}
	}
}
