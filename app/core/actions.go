package core

import (
	"yui/app/core/petview"
	"yui/app/core/route"
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
	t.Add(route.Only(lg, route.Roles(view.RoleSettings), "pet pages act on their own preset",
		route.JSON(lg, func(_ view.Peer, a view.PresetAction) { c.presetAction(a) })), view.TypePresetAction)
}

// presetAction passes a settings-window action to the preset's session; a
// preset with no running pet (switched off) or an unknown action is logged
// and dropped.
func (c *Core) presetAction(a view.PresetAction) {
	pt := c.pet(a.Preset)
	if pt == nil {
		c.log.Warn("view_unknown_preset", "preset", a.Preset, "type", view.TypePresetAction)
		return
	}
	switch a.Action {
	case view.TypeReconnect:
		pt.Session.Reconnect()
	case view.TypeReset:
		pt.view.Reset()
	case "show":
		c.desk.ShowPet(a.Preset)
	default:
		c.log.Warn("view_malformed", "type", view.TypePresetAction, "action", a.Action)
		return
	}
	c.log.Info("view_action", "type", a.Action, "preset", a.Preset, "from", view.RoleSettings)
}

var _ petview.Character = (*pet)(nil)
