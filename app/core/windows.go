package core

import (
	"image"

	"yui/app/core/windows"
	"yui/app/settings"
)

// winHost is what the windows ask of the core.
type winHost struct{ c *Core }

// Running: window processes run once Run started them, unless the core
// runs without windows.
func (h winHost) Running() bool {
	if h.c.opts.NoWindows {
		return false
	}
	return h.c.pets.Started()
}

func (h winHost) Preset(id string) (settings.Preset, bool)  { return h.c.presetNow(id) }
func (h winHost) PetPosition(id string) (image.Point, bool) { return h.c.desk.PetPosition(id) }
func (h winHost) SettingsOpened() (image.Point, bool) {
	at, ok := h.c.desk.SettingsPosition(image.Pt(windows.SettingsWidth, windows.SettingsHeight))
	h.c.desk.SettingsOpened(at, ok)
	return at, ok
}

func (h winHost) MessagePage(id string) {
	if pt := h.c.pet(id); pt != nil {
		pt.view.SendTranscript()
	}
}
