package ear

import (
	"context"
	"slices"
	"time"

	"yui/app/core/route"
	"yui/app/phrase"
	"yui/app/settings"
	"yui/app/view"
)

// PublishSettings tells the settings window the Listening section: the
// saved form and the capture devices (asked of the sound server, off the
// caller's goroutine).
func (r *Room) PublishSettings() {
	r.mu.Lock()
	r.pubSeq++
	seq := r.pubSeq
	r.mu.Unlock()
	go func() {
		st := r.settingsListen()
		r.mu.Lock()
		defer r.mu.Unlock()
		if seq != r.pubSeq {
			return // a later call publishes fresher settings
		}
		r.cfg.Pages.PublishSettings(view.TypeSettingsListen, view.MustEncode(view.TypeSettingsListen, st))
	}()
}

// settingsListen is the Listening section now: it asks the sound server.
func (r *Room) settingsListen() view.SettingsListen {
	l := r.cfg.Store.Get().Listen
	st := view.SettingsListen{Form: view.ListenForm{On: l.On, Device: l.Device, Sensitivity: l.SensitivityPercent(),
		BargeIn: l.BargeIn, BaseURL: l.BaseURL, Model: l.Model, Language: l.Language, Target: l.Target,
		PushToTalkKey: l.PushToTalk(), HasKey: l.Key != ""},
		Devices: []view.Choice{{ID: "", Label: "Automatic (echo-cancelled microphone when there is one)", Available: true}}}
	for _, k := range settings.PushToTalkKeys[1:] {
		st.Keys = append(st.Keys, view.Choice{ID: k, Label: k, Available: true})
	}
	if r.cfg.Input == nil {
		st.Note, st.NoteMsg = phrase.New("core.note.no_microphone").English(), new(phrase.New("core.note.no_microphone"))
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		srcs, err := r.cfg.Input.Sources(ctx)
		cancel()
		if err != nil {
			st.Note, st.NoteMsg = phrase.New("core.note.no_input_server").English(), new(phrase.New("core.note.no_input_server"))
		}
		for _, s := range srcs {
			if s.Monitor {
				continue // what the speakers play, not a microphone
			}
			label := s.Description
			switch {
			case s.EchoCancelled:
				label += " (echo-cancelled)"
			case s.Default:
				label += " (default)"
			}
			st.Devices = append(st.Devices, view.Choice{ID: s.Name, Label: label, Available: true})
		}
	}
	if l.Device != "" && !slices.ContainsFunc(st.Devices, func(ch view.Choice) bool { return ch.ID == l.Device }) {
		st.Devices = append(st.Devices, view.Choice{ID: l.Device, Label: l.Device, Available: false, Note: "not connected now"})
	}
	return st
}

// Routes registers the listening messages of the pages: push-to-talk and
// the pet menu's "she hears me" from a pet page, the meter from the
// settings page (the section is saved with the form's one Save). A
// message from another role, or one that does not decode, is refused.
func (r *Room) Routes(t *route.Table) {
	t.Add(only(r, view.RolePet, func(_ view.Peer, h view.ListenHold) { r.l.Hold(h.Held) }), view.TypeListenHold)
	t.Add(func(peer view.Peer, m view.Message) {
		if peer.Role != view.RolePet || peer.Preset == "" {
			r.log.Warn("view_refused", "type", m.Type, "role", peer.Role)
			return
		}
		r.setTarget(peer.Preset)
	}, view.TypeListenTarget)
	t.Add(only(r, view.RoleSettings, func(_ view.Peer, mt view.ListenMeter) { r.l.Meter(mt.On) }), view.TypeListenMeter)
}

// only decodes a message of role into a T for fn; another role's, or one
// that does not decode, is refused (logged).
func only[T any](r *Room, role string, fn func(view.Peer, T)) route.Handler {
	return func(peer view.Peer, m view.Message) {
		var v T
		if peer.Role != role || route.Decode(m, &v) != nil {
			r.log.Warn("view_refused", "type", m.Type, "role", peer.Role)
			return
		}
		fn(peer, v)
	}
}

// setTarget makes preset id the character spoken turns go to.
func (r *Room) setTarget(id string) {
	if err := r.cfg.Store.Update(func(s *settings.Settings) { s.Listen.Target = id }); err != nil {
		r.log.Warn("listen_target_not_saved", "err", err.Error())
		return
	}
	r.log.Info("listen_target", "preset", id)
	r.Publish()
	r.PublishSettings()
}
