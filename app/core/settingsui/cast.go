package settingsui

import (
	"yui/app/settings"
	"yui/app/view"
)

// Cast is the Host the core gives the room: its save, and the narrow
// parts of the window processes, the desktop room, the ear and the
// delegation histories below.
type Cast struct {
	// Saver runs a save (Host.Save).
	Saver func(change func(*settings.Settings) error) (before, after settings.Settings, err error)
	// Start starts the window's process or shows the hidden one (true:
	// shown); End ends it.
	Start func() bool
	End   func()
	// OnShown and OnHidden tell the desktop room; OnOpened the ear (the
	// Listening section looks at the microphones again).
	OnShown, OnHidden, OnOpened func()
	Note                        func() string
	Demo                        func() string
	Stored                      func(id string) []view.DelegationItem
}

// Save runs the save.
func (c Cast) Save(change func(*settings.Settings) error) (before, after settings.Settings, err error) {
	return c.Saver(change)
}

// ShowWindow starts the window, or shows the hidden one.
func (c Cast) ShowWindow() {
	if c.Start() {
		c.OnShown()
	}
}

// EndWindow ends the window's process.
func (c Cast) EndWindow() { c.End() }

// Hidden is told the user hid the window.
func (c Cast) Hidden() { c.OnHidden() }

// Opened is told the window was opened.
func (c Cast) Opened() { c.OnOpened() }

// ShortcutNote says why the global shortcut does not work ("").
func (c Cast) ShortcutNote() string { return c.Note() }

// StoredHistory reads preset id's delegation history from disk.
func (c Cast) StoredHistory(id string) []view.DelegationItem { return c.Stored(id) }

// DemoURL is where the embedded demo backend listens ("" none).
func (c Cast) DemoURL() string { return c.Demo() }

var _ Host = Cast{}
