package core

import (
	"image"

	"yui/app/capture"
	"yui/app/look"
	"yui/app/settings"
)

// bodyState is where the character is: her window's remembered top-left
// corner and the monitor holding the window's centre. Postures other than
// standing arrive with body_action.
func (c *Core) bodyState(id string) look.BodyState {
	b := look.BodyState{Posture: "standing"}
	p, ok := c.presetNow(id)
	if !ok || p.Window == nil {
		return b
	}
	b.Position = look.Point{X: p.Window.X, Y: p.Window.Y}
	if ms, err := c.screen.Monitors(); err == nil {
		r := image.Rect(p.Window.X, p.Window.Y, p.Window.X+PetWidth, p.Window.Y+PetHeight)
		if i := capture.Containing(ms, r); i >= 0 {
			b.Monitor = i
		}
	}
	return b
}

// backendName is how a prompt names the preset's backend.
func backendName(p settings.Preset) string {
	if p.ChatBaseURL == settings.DemoBaseURL {
		return "The demo backend"
	}
	if p.ChatBaseURL == "" {
		return p.Name + "'s backend"
	}
	return p.ChatBaseURL
}
