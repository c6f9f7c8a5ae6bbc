package desktop

import (
	"encoding/json"

	"yui/app/core/route"
	"yui/app/phrase"
	"yui/app/view"
)

// Routes registers what the pages send the room: the pet menu's app-wide
// items (desktop_action), a pet shell's position, and show_window.
func (r *Room) Routes(t *route.Table) {
	lg := r.log
	t.Add(route.Only(lg, route.Roles(view.RolePet), "only a pet page has the desktop menu", r.desktopAction), view.TypeDesktopAction)
	t.Add(route.Only(lg, route.PetShell, "only a pet window's shell reports its position",
		route.JSON(lg, func(p view.Peer, wp view.WindowPosition) { r.Moved(p.Preset, wp) })), view.TypeWindowPosition)
	t.Add(route.Only(lg, route.Roles(view.RolePet, view.RoleSettings), "only pages ask to show a window",
		route.JSON(lg, func(p view.Peer, sw view.ShowWindow) {
			if sw.Preset == "" {
				sw.Preset = p.Preset
			}
			if err := r.ShowPet(sw.Preset); err != nil {
				lg.Warn("view_unknown_preset", "preset", sw.Preset, "type", view.TypeShowWindow)
			}
		})), view.TypeShowWindow)
}

// desktopAction handles a pet menu's app-wide item.
func (r *Room) desktopAction(peer view.Peer, m view.Message) {
	var a view.DesktopAction
	if err := json.Unmarshal(m.Body, &a); err != nil {
		r.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
		return
	}
	r.log.Info("view_action", "type", m.Type, "action", a.Action, "preset", peer.Preset)
	switch a.Action {
	case view.DesktopHide:
		r.SetShown(peer.Preset, false)
	case view.DesktopMute, view.DesktopUnmute:
		if err := r.cfg.Host.SetMuted(a.Action == view.DesktopMute); err != nil {
			r.notice(peer.Preset, "desktop_mute", phrase.New("core.notice.mute_failed", "error", err.Error()))
		}
	case view.DesktopStartAtLoginOn, view.DesktopStartAtLoginOff:
		if err := r.SetStartAtLogin(a.Action == view.DesktopStartAtLoginOn); err != nil {
			r.notice(peer.Preset, "desktop_autostart", phrase.New("core.notice.login_failed", "error", err.Error()))
		}
	case view.DesktopResetPosition:
		r.ResetPosition(peer.Preset)
	case view.DesktopQuit:
		r.Quit()
	default:
		r.log.Warn("view_malformed", "type", m.Type, "action", a.Action)
	}
}

func (r *Room) notice(preset, id string, m phrase.Phrase) {
	r.cfg.Pages.Publish(preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.NoticeOf(id, m)))
}
