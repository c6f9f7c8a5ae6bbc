package windows

import (
	"image"

	"yui/app/settings"
)

// Cast is the Host the core gives the Windows: the saved settings and the
// narrow parts below.
type Cast struct {
	Store interface{ Get() settings.Settings }
	// Runs reports whether window processes run now.
	Runs func() bool
	// Position is where preset id's pet window opens (the desktop room).
	Position func(id string) (image.Point, bool)
	// SettingsAt is where a settings window of size opens; OnSettings is
	// told it opened there (the desktop room).
	SettingsAt func(size image.Point) (image.Point, bool)
	OnSettings func(at image.Point, ok bool)
	// Transcript sends preset id's message page her transcript.
	Transcript func(id string)
}

// Running reports whether window processes run now.
func (c Cast) Running() bool { return c.Runs() }

// Preset is preset id as saved now.
func (c Cast) Preset(id string) (settings.Preset, bool) {
	all := c.Store.Get()
	return all.Preset(id)
}

// PetPosition is where preset id's window opens.
func (c Cast) PetPosition(id string) (image.Point, bool) { return c.Position(id) }

// SettingsOpened says where the settings window opens, and tells it.
func (c Cast) SettingsOpened() (image.Point, bool) {
	at, ok := c.SettingsAt(image.Pt(SettingsWidth, SettingsHeight))
	c.OnSettings(at, ok)
	return at, ok
}

// MessagePage sends preset id's message page her transcript.
func (c Cast) MessagePage(id string) { c.Transcript(id) }

var _ Host = Cast{}
