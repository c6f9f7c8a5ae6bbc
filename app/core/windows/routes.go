package windows

import (
	"yui/app/core/route"
	"yui/app/view"
)

// Routes registers the pet window's "open my messages": preset id's
// message window opens while her character runs (running), else the ask
// is logged and dropped.
func (w *Windows) Routes(t *route.Table, running func(id string) bool) {
	t.Add(route.Only(w.log, route.Roles(view.RolePet), "the pet window opens its messages",
		func(peer view.Peer, _ view.Message) {
			id := peer.Preset
			p, ok := w.cfg.Host.Preset(id)
			if !ok || !running(id) {
				w.log.Warn("view_unknown_preset", "preset", id, "type", "open_messages")
				return
			}
			w.log.Info("messages_open", "preset", id)
			w.OpenMessages(p)
		}), view.TypeOpenMessages)
}
