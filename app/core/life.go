package core

import (
	"image"
	"log/slog"
	"os"

	"yui/app/core/life"
	"yui/app/perch"
)

// newLife builds the life room: her body on the desktop. It has the
// system's desktop (perch.System) when the core runs windows on a display
// it can reach, or the test's window list; else none, and body_action
// answers unsupported.
func newLife(c *Core, opts Options, lg *slog.Logger) *life.Room {
	var desk perch.Desktop
	switch {
	case opts.Perches != nil:
		desk = opts.Perches
	case !opts.NoWindows && perch.Available():
		desk = perch.System()
	}
	return life.New(life.Config{Pages: c.view, Host: lifeHost{c}, Screen: c.screen, Desktop: desk,
		OwnPIDs: []int{os.Getpid()}, Logger: lg})
}

// lifeHost is what the life room asks of the core.
type lifeHost struct{ c *Core }

// Place is preset id's saved window place.
func (h lifeHost) Place(id string) (image.Point, bool) {
	p, ok := h.c.presetNow(id)
	if !ok || p.Window == nil {
		return image.Point{}, false
	}
	return image.Pt(p.Window.X, p.Window.Y), true
}
