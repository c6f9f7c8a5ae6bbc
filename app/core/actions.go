package core

import (
	"yui/app/core/petview"
	"yui/app/core/route"
	"yui/app/core/settingsui"
	"yui/app/view"
)

// onMessage handles what windows send, through the route table.
func (c *Core) onMessage(peer view.Peer, m view.Message) {
	c.trace(map[string]any{"event": "view_in", "role": peer.Role, "preset": peer.Preset, "message": route.Redacted(m)})
	c.routes.Serve(peer, m)
}

// addRoutes registers what the pages ask of a character: her own page's
// actions (petview) and the settings window's actions on a preset.
func (c *Core) addRoutes(t *route.Table) {
	lg := c.log
	petview.Routes(t, lg, c.view, func(id string) *petview.View {
		if pt := c.pet(id); pt != nil {
			return pt.view
		}
		return nil
	})
	settingsui.PresetActs[*pet]{Find: c.pets.Get, Show: func(id string) error { return c.desk.ShowPet(id) },
		Reconnect: func(pt *pet) { pt.Session.Reconnect() }, Reset: func(pt *pet) { pt.view.Reset() }}.Routes(t, lg)
}

var _ petview.Character = (*pet)(nil)
