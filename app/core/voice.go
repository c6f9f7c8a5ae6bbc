package core

import (
	"fmt"
	"time"

	"yui/app/audio"
	"yui/app/cue"
	"yui/app/settings"
	"yui/app/view"
	"yui/app/voice"
)

// voiceConfig is the voice of preset p with the shared audio settings a.
func voiceConfig(p settings.Preset, a settings.Audio) voice.Config { return voice.FromSettings(p, a) }

// presetVocabulary is the vocabulary the preset's hello declares: the
// renderer's ids with its voice engine's tag table.
func (c *Core) presetVocabulary(p settings.Preset) cue.Vocabulary {
	return voiceConfig(p, settings.Audio{}).Vocabulary(c.vocab)
}

// newSpeaker makes the pet's voice.
func (c *Core) newSpeaker(pt *pet, p settings.Preset) *voice.Speaker {
	var out audio.Output
	if c.opts.Sound != nil {
		out = c.opts.Sound
	}
	return voice.New(voice.Options{
		Name:   "Yui — " + p.Name,
		Output: out,
		Global: c.mute,
		OnMouth: func(m voice.Mouth) {
			pt.heard.Sound(m.At, time.Duration(len(m.Levels))*m.Step, m.First)
			pt.view.OnMouth(m)
		},
		OnError: pt.view.OnVoiceError,
		Logger:  c.log.With("preset", p.ID),
		Pace:    SpeechRate,
		Engine:  c.opts.VoiceEngine,
	}, voiceConfig(p, c.store.Get().Audio))
}

// vocabularyChanged reports a voice change that changes the hello's
// vocabulary (the tag table, or an engine that has one): a new connection
// declares it.
func (c *Core) vocabularyChanged(a, b settings.Preset) bool {
	return !c.presetVocabulary(a).Equal(c.presetVocabulary(b))
}

// Muted reports whether every character is muted (the global mute).
func (c *Core) Muted() bool { return c.mute.On() }

// SetMuted switches the global mute, saves it and tells every window. The
// tray's mute item calls it; the pet menu and the settings window reach
// it too. Safe from any goroutine.
func (c *Core) SetMuted(on bool) error {
	if err := c.store.Update(func(s *settings.Settings) { s.Audio.Muted = on }); err != nil {
		return fmt.Errorf("core: mute: %w", err)
	}
	c.applyAudio(c.store.Get().Audio)
	c.sui.PublishState()
	c.log.Info("voice_mute", "scope", view.MuteAll, "muted", on)
	return nil
}

// SetCharacterMuted mutes or unmutes one character, saves it and tells its
// windows.
func (c *Core) SetCharacterMuted(id string, on bool) error {
	found := false
	err := c.store.Update(func(s *settings.Settings) {
		for i := range s.Presets {
			if s.Presets[i].ID == id {
				s.Presets[i].Voice.Muted = on
				found = true
			}
		}
	})
	if err != nil {
		return fmt.Errorf("core: mute %s: %w", id, err)
	}
	if !found {
		return fmt.Errorf("core: mute: no preset %s", id)
	}
	if pt := c.pet(id); pt != nil {
		pt.speaker.SetMuted(on)
		pt.view.PublishVoice()
	}
	c.sui.PublishState()
	c.log.Info("voice_mute", "scope", view.MuteCharacter, "preset", id, "muted", on)
	return nil
}

// applyAudio applies the shared sound settings to the running pets.
func (c *Core) applyAudio(a settings.Audio) {
	changed := c.mute.On() != a.Muted
	c.mute.Set(a.Muted)
	if changed {
		// The tray and the pet menus' "Mute voices" check hear of it
		// before the pages' voice topic changes, so whoever sees the
		// topic change knows they were told.
		if c.opts.OnMuteChanged != nil {
			c.opts.OnMuteChanged(a.Muted)
		}
		c.desk.Changed()
	}
	c.petsMu.Lock()
	pets := make([]*pet, 0, len(c.pets))
	for _, pt := range c.pets {
		pets = append(pets, pt)
	}
	c.petsMu.Unlock()
	for _, pt := range pets {
		if p, ok := c.presetNow(pt.preset); ok {
			pt.speaker.Configure(voiceConfig(p, a))
		}
		pt.view.PublishVoice()
	}
}

// mute handles the pet menu's mute items.
func (c *Core) muteFromPage(preset string, m view.Mute) {
	var err error
	switch m.Scope {
	case view.MuteAll:
		err = c.SetMuted(m.Muted)
	case view.MuteCharacter:
		err = c.SetCharacterMuted(preset, m.Muted)
	default:
		c.log.Warn("view_malformed", "type", view.TypeMute, "scope", m.Scope)
		return
	}
	if err != nil {
		c.log.Error("settings_save_failed", "err", err.Error())
	}
}
