// Package voices is the core's room for the characters' voices as the
// user sets them: the global mute ("Mute all voices" in the tray, the pet
// menu and the settings window), one character's mute (her menu), and the
// shared sound settings, saved and applied to every running character's
// speaker and shown in her menu.
package voices

import (
	"fmt"
	"log/slog"

	"yui/app/core/route"
	"yui/app/i18n"
	"yui/app/settings"
	"yui/app/view"
	"yui/app/voice"
)

// Store is the settings file.
type Store interface {
	Get() settings.Settings
	Update(func(*settings.Settings)) error
}

// Voice is one running character's voice.
type Voice interface {
	// ID is her preset's id.
	ID() string
	// Configure gives her speaker its voice (from the next sentence; a
	// mute at once).
	Configure(voice.Config)
	// SetMuted mutes or unmutes her alone.
	SetMuted(on bool)
	// PublishVoice tells her pet page the mute state for its menu.
	PublishVoice()
}

// Host is what the room asks of the core.
type Host interface {
	// Voices are the running characters' voices, in no order.
	Voices() []Voice
	// MuteChanged is told the global mute changed (the tray's and the pet
	// menus' check), before the pages' voice topics are.
	MuteChanged(on bool)
	// Saved is told a mute was saved (the settings window shows it).
	Saved()
}

// Room is the voices room.
type Room struct {
	store Store
	mute  *voice.Mute
	host  Host
	log   *slog.Logger
}

// New makes the room around the global mute every speaker watches, set
// from the saved settings.
func New(store Store, mute *voice.Mute, host Host, lg *slog.Logger) *Room {
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	mute.Set(store.Get().Audio.Muted)
	return &Room{store: store, mute: mute, host: host, log: lg}
}

// Muted reports whether every character is muted (the global mute).
func (r *Room) Muted() bool { return r.mute.On() }

// SetMuted switches the global mute, saves it and tells every window. The
// tray's mute item calls it; the pet menu and the settings window reach it
// too. Safe from any goroutine.
func (r *Room) SetMuted(on bool) error {
	if err := r.store.Update(func(s *settings.Settings) { s.Audio.Muted = on }); err != nil {
		return fmt.Errorf("voices: mute: %w", err)
	}
	r.Apply(r.store.Get().Audio)
	r.host.Saved()
	r.log.Info("voice_mute", "scope", view.MuteAll, "muted", on)
	return nil
}

// SetCharacterMuted mutes or unmutes one character, saves it and tells
// her windows.
func (r *Room) SetCharacterMuted(id string, on bool) error {
	found := false
	err := r.store.Update(func(s *settings.Settings) {
		for i := range s.Presets {
			if s.Presets[i].ID == id {
				s.Presets[i].Voice.Muted = on
				found = true
			}
		}
	})
	if err != nil {
		return fmt.Errorf("voices: mute %s: %w", id, err)
	}
	if !found {
		return fmt.Errorf("voices: mute: no preset %s", id)
	}
	for _, v := range r.host.Voices() {
		if v.ID() == id {
			v.SetMuted(on)
			v.PublishVoice()
		}
	}
	r.host.Saved()
	r.log.Info("voice_mute", "scope", view.MuteCharacter, "preset", id, "muted", on)
	return nil
}

// Apply applies the shared sound settings a to the running characters.
func (r *Room) Apply(a settings.Audio) {
	changed := r.mute.On() != a.Muted
	r.mute.Set(a.Muted)
	if changed {
		// The tray and the pet menus' "Mute all voices" check hear of it
		// before the pages' voice topic changes, so whoever sees the
		// topic change knows they were told.
		r.host.MuteChanged(a.Muted)
	}
	all := r.store.Get()
	all.Audio = a // the settings being applied
	for _, v := range r.host.Voices() {
		if p, ok := all.Preset(v.ID()); ok {
			v.Configure(Spoken(all, p))
		}
		v.PublishVoice()
	}
}

// Routes registers the pet menu's mute items.
func (r *Room) Routes(t *route.Table) {
	t.Add(route.Only(r.log, route.Roles(view.RolePet), "the pet menu mutes",
		route.JSON(r.log, func(p view.Peer, m view.Mute) { r.fromPage(p.Preset, m) })), view.TypeMute)
}

func (r *Room) fromPage(preset string, m view.Mute) {
	var err error
	switch m.Scope {
	case view.MuteAll:
		err = r.SetMuted(m.Muted)
	case view.MuteCharacter:
		err = r.SetCharacterMuted(preset, m.Muted)
	default:
		r.log.Warn("view_malformed", "type", view.TypeMute, "scope", m.Scope)
		return
	}
	if err != nil {
		r.log.Error("settings_save_failed", "err", err.Error())
	}
}

// Spoken is preset p's voice in s: the shared audio settings, in the
// language she speaks (settings.SpokenLanguage, voice.Config.InLanguage).
func Spoken(s settings.Settings, p settings.Preset) voice.Config {
	return voice.FromSettings(p, s.Audio).InLanguage(s.SpokenLanguage(p, i18n.SystemLocale()))
}
