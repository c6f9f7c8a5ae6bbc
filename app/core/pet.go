package core

import (
	"fmt"

	"yui/app/settings"
	"yui/app/view"
)

// publishInitial sets the sticky state a pet page shows before anything
// happens: which character, the plate, the composer, and any notice about
// the settings file.
func (c *Core) publishInitial(p settings.Preset, rep settings.Report) {
	c.view.Publish(p.ID, view.TypePreset, view.MustEncode(view.TypePreset, view.PresetInfo{ID: p.ID, Name: p.Name, Look: p.Look}))
	c.view.Publish(p.ID, view.TypePlate, view.MustEncode(view.TypePlate, plateFor(p)))
	c.view.Publish(p.ID, view.TypeComposer, view.MustEncode(view.TypeComposer, view.Composer{Locked: false}))
	if rep.Problem != nil {
		text := fmt.Sprintf("Your settings file could not be used (%v). It was kept as %s and Yui started with default settings.", rep.Problem, rep.KeptAs)
		c.view.Publish(p.ID, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: "settings_bad", Text: text}))
	}
}

// plateFor is the connection plate of a preset with no live connection.
// The turn engine replaces it once a session owns the connection.
func plateFor(p settings.Preset) view.Plate {
	if p.ChatBaseURL == "" {
		return view.Plate{Kind: "connection", Text: "not configured"}
	}
	return view.Plate{Kind: "connection", Text: "not connected"}
}
