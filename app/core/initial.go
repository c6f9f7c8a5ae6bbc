package core

import (
	"fmt"

	"yui/app/settings"
	"yui/app/view"
)

// FirstRunTip is the notice the main character shows once, on the first
// run (no settings file existed).
const FirstRunTip = "Click me to talk · right-click for settings. I tell your agent which app you are using; switch that off in Settings."

const tipID = "first_run_tip"

// dropTip takes the first-run tip away from preset's page once the user
// has talked to her (it stays until then, or until its × is clicked).
func (c *Core) dropTip(preset string) {
	if c.tip.CompareAndSwap(preset, "") {
		c.view.Publish(preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: tipID}))
	}
}

// publishInitial sets what a pet page shows before its session says
// anything: which character, and any notice about the settings file.
func (c *Core) publishInitial(p settings.Preset, rep settings.Report) {
	c.view.Publish(p.ID, view.TypePreset, view.MustEncode(view.TypePreset, view.PresetInfo{ID: p.ID, Name: p.Name, Look: p.Look}))
	// The windows' titles follow a rename (a window opened later gets it
	// in its window_config).
	c.wins.Retitle(p)
	c.desk.Publish(p.ID)
	c.wardrobe.PublishArt(p.ID, p.Look)
	if rep.Created && p.ID == c.store.Get().ActivePreset {
		c.tip.Store(p.ID)
		c.view.Publish(p.ID, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: tipID, Text: FirstRunTip}))
	}
	if rep.Problem != nil {
		text := fmt.Sprintf("Your settings file could not be used (%v). It was kept as %s and Yui started with default settings.", rep.Problem, rep.KeptAs)
		c.view.Publish(p.ID, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: "settings_bad", Text: text}))
	}
}
