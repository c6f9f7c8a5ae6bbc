package core

import (
	"yui/app/core/petview"
	"yui/app/settings"
	"yui/app/view"
)

// FirstRunTip is the notice the main character shows once, on the first
// run (petview.FirstRunTip).
const FirstRunTip = petview.FirstRunTip

// publishInitial sets what a pet page shows before its session says
// anything: which character, her look, and any notice about the settings
// file (the first-run tip on the main character's).
func (c *Core) publishInitial(p settings.Preset, rep settings.Report) {
	c.view.Publish(p.ID, view.TypePreset, view.MustEncode(view.TypePreset, view.PresetInfo{ID: p.ID, Name: p.Name, Look: p.Look}))
	// The windows' titles follow a rename (a window opened later gets it
	// in its window_config).
	c.wins.Retitle(p)
	c.desk.Publish(p.ID)
	c.wardrobe.PublishArt(p.ID, p.Look)
	if rep.Created && p.ID == c.store.Get().ActivePreset {
		c.tip.Show(p.ID)
	}
	petview.SettingsNotice(c.view, p.ID, rep)
}

// publishPet publishes a new pet's page and her part of the rooms' topics.
func (c *Core) publishPet(p settings.Preset, pt *pet, rep settings.Report) {
	c.publishInitial(p, rep)
	pt.view.PublishAll()
	c.ear.PublishTo(pt.Preset)
	c.companion.PublishTo(pt.Preset)
}
