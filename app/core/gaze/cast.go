package gaze

import (
	"image"

	"yui/app/settings"
	"yui/app/view"
)

// Cast is who follows the pointer, made of the saved settings and the
// running characters through the narrow parts below.
type Cast struct {
	Store interface{ Get() settings.Settings }
	// Running reports whether preset id's character runs; Hidden whether
	// her window is hidden.
	Running, Hidden func(id string) bool
	// Follows reports whether the look follows the pointer (a VRM look).
	Follows func(look string) bool
	// Window is preset id's window on the screen (ok false: hidden or
	// never placed).
	Window func(id string) (image.Rectangle, bool)
	// Pages sends her page its pointer.
	Pages interface {
		Send(role, preset string, m view.Message)
	}
}

// Targets are the characters that follow the pointer now: those that
// run, are shown and wear a look that follows it.
func (c Cast) Targets() map[string]Target {
	targets := map[string]Target{}
	for _, p := range c.Store.Get().Presets {
		if !p.Enabled || !c.Running(p.ID) || c.Hidden(p.ID) || !c.Follows(p.Look) {
			continue
		}
		id := p.ID
		targets[id] = Target{
			Window: func() (image.Rectangle, bool) { return c.Window(id) },
			Send: func(pt view.Pointer) {
				c.Pages.Send(view.RolePet, id, view.MustEncode(view.TypePointer, pt))
			},
		}
	}
	return targets
}
