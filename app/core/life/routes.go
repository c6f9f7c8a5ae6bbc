package life

import (
	"context"
	"image"

	"yui/app/bodyaction"
	"yui/app/core/route"
	"yui/app/view"
)

// Routes registers what her page sends the room: a drag (body_drag) and
// her menu's bed (body_menu).
func (r *Room) Routes(t *route.Table) {
	lg := r.log
	t.Add(route.Only(lg, route.Roles(view.RolePet), "only a pet page drags her",
		route.JSON(lg, func(p view.Peer, d view.BodyDrag) {
			c := r.char(p.Preset)
			switch d.Phase {
			case view.DragStart:
				c.dragStart()
			case view.DragEnd:
				c.dragEnd(image.Pt(d.X, d.Y))
			default:
				lg.Warn("view_malformed", "type", view.TypeBodyDrag, "phase", d.Phase)
			}
		})), view.TypeBodyDrag)
	t.Add(route.Only(lg, route.Roles(view.RolePet), "only a pet page has her menu",
		route.JSON(lg, func(p view.Peer, m view.BodyMenu) {
			c := r.char(p.Preset)
			switch m.Action {
			case view.BodyMenuSleep:
				// Like the tool's go_to_bed: a walk in progress stops.
				c.Act(context.Background(), bodyaction.Action{Kind: bodyaction.GoToBed})
			case view.BodyMenuWake:
				c.wake("menu")
			default:
				lg.Warn("view_malformed", "type", view.TypeBodyMenu, "action", m.Action)
			}
		})), view.TypeBodyMenu)
}
