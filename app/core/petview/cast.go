package petview

import (
	"yui/app/settings"
	"yui/app/view"
)

// Cast is the Host the core gives a View: the saved settings and the
// narrow parts below.
type Cast struct {
	Store interface{ Get() settings.Settings }
	// Where is where preset id's session connects (Host.Endpoint).
	Where func(id string) string
	// Runs reports whether this build runs chat_api.
	Runs func(chatAPI string) bool
	// Muted reports the global mute.
	Muted func() bool
	// Status and History tell the settings window's list (settingsui).
	Status  func(id string, st *view.PresetStatus)
	History func(id string, items []view.DelegationItem)
}

// Preset is preset id as saved now.
func (c Cast) Preset(id string) (settings.Preset, bool) {
	all := c.Store.Get()
	return all.Preset(id)
}

// Endpoint is where the preset's session connects.
func (c Cast) Endpoint(id string) string { return c.Where(id) }

// Available reports whether this build runs chat_api.
func (c Cast) Available(chatAPI string) bool { return c.Runs(chatAPI) }

// GlobalMuted reports the global mute.
func (c Cast) GlobalMuted() bool { return c.Muted() }

// SetStatus tells the settings window's list the connection.
func (c Cast) SetStatus(id string, st *view.PresetStatus) { c.Status(id, st) }

// SetHistory tells the settings window the delegation history.
func (c Cast) SetHistory(id string, items []view.DelegationItem) { c.History(id, items) }

var _ Host = Cast{}
