package core

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"yui/app/audio"
	"yui/app/cue"
	"yui/app/settings"
	"yui/app/tts"
	"yui/app/view"
	"yui/app/voice"
)

// voiceConfig is the voice of preset p with the shared audio settings a.
func voiceConfig(p settings.Preset, a settings.Audio) voice.Config { return voice.FromSettings(p, a) }

// presetVocabulary is the vocabulary the preset's hello declares: the
// renderer's ids with its voice engine's tag table.
func (c *Core) presetVocabulary(p settings.Preset) cue.Vocabulary {
	return voiceConfig(p, settings.Audio{}).Vocabulary(c.lookVocabulary(p.Look))
}

// newSpeaker makes the pet's voice.
func (c *Core) newSpeaker(pt *pet, p settings.Preset) *voice.Speaker {
	var out audio.Output
	if c.opts.Sound != nil {
		out = c.opts.Sound
	}
	return voice.New(voice.Options{
		Name:    "Yui — " + p.Name,
		Output:  out,
		Global:  c.mute,
		OnMouth: pt.onMouth,
		OnError: pt.onVoiceError,
		Logger:  c.log.With("preset", p.ID),
		Pace:    SpeechRate,
		Engine:  c.opts.VoiceEngine,
	}, voiceConfig(p, c.store.Get().Audio))
}

// onMouth sends lip-sync levels to the pet's pages (not sticky: a page that
// connects later has missed that sound).
func (pt *pet) onMouth(m voice.Mouth) {
	pt.heard.Sound(m.At, time.Duration(len(m.Levels))*m.Step, m.First)
	msg := view.Mouth{At: m.At.UnixMilli(), StepMS: int(m.Step / time.Millisecond), Levels: make([]int, len(m.Levels))}
	for i, v := range m.Levels {
		msg.Levels[i] = int(v)
	}
	pt.core.view.Send(view.RolePet, pt.preset, view.MustEncode(view.TypeMouth, msg))
}

// onVoiceError shows a sentence's voice failure in the pill.
func (pt *pet) onVoiceError(short string) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if pt.voiceErr == short {
		return
	}
	pt.voiceErr = short
	pt.publishPill()
}

// publishVoice tells the pet page the mute state for its menu.
func (pt *pet) publishVoice() {
	p, _ := pt.core.presetNow(pt.preset)
	pt.publish(view.TypeVoice, view.VoiceState{Muted: p.Voice.Muted, GlobalMuted: pt.core.mute.On(), Engine: p.Voice.EngineName()})
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
	c.publishSettingsState()
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
		pt.publishVoice()
	}
	c.publishSettingsState()
	c.log.Info("voice_mute", "scope", view.MuteCharacter, "preset", id, "muted", on)
	return nil
}

// applyAudio applies the shared sound settings to the running pets.
func (c *Core) applyAudio(a settings.Audio) {
	changed := c.mute.On() != a.Muted
	c.mute.Set(a.Muted)
	if changed {
		// The tray and the pet menus' "Mute all voices" check hear of it
		// before the pages' voice topic changes, so whoever sees the
		// topic change knows they were told.
		if c.opts.OnMuteChanged != nil {
			c.opts.OnMuteChanged(a.Muted)
		}
		c.desktopChanged()
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
		pt.publishVoice()
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

// soundState is what the settings window shows about the sound output.
type soundState struct {
	mu      sync.Mutex
	voices  map[string][]view.Choice // program → voices, read once
	read    bool
	present map[string]bool // program → installed
}

// programs reports which system-voice programs are installed and their
// voices, reading them once.
func (c *Core) programs() (map[string]bool, map[string][]view.Choice) {
	c.sound.mu.Lock()
	defer c.sound.mu.Unlock()
	if !c.sound.read {
		c.sound.read = true
		c.sound.present = map[string]bool{}
		c.sound.voices = map[string][]view.Choice{}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		for _, prog := range []string{tts.ESpeak, tts.Flite} {
			if !tts.Available(prog) {
				continue
			}
			c.sound.present[prog] = true
			vs, err := tts.Voices(ctx, prog)
			if err != nil {
				c.log.Warn("voice_list_failed", "program", prog, "err", err.Error())
				continue
			}
			list := make([]view.Choice, len(vs))
			for i, v := range vs {
				list[i] = view.Choice{ID: v.ID, Label: v.Label, Available: true}
			}
			c.sound.voices[prog] = list
		}
	}
	return c.sound.present, c.sound.voices
}

// voiceChoices adds the voice options to ch.
func (c *Core) voiceChoices(ch *view.SettingsChoices) {
	present, voices := c.programs()
	ch.VoiceEngines = []view.Choice{
		{ID: "system", Label: "System voice", Available: true, Note: "espeak-ng or flite on this computer"},
		{ID: "endpoint", Label: "Speech endpoint", Available: true, Note: "an OpenAI-compatible /audio/speech service, with its own key"},
		{ID: "off", Label: "Off", Available: true, Note: "text only"},
	}
	for _, prog := range []string{tts.ESpeak, tts.Flite} {
		c := view.Choice{ID: prog, Label: prog, Available: present[prog]}
		if !c.Available {
			c.Note = "not installed"
		}
		ch.VoicePrograms = append(ch.VoicePrograms, c)
	}
	ch.VoiceFormats = []view.Choice{
		{ID: "wav", Label: "WAV", Available: true},
		{ID: "pcm", Label: "PCM (24 kHz)", Available: true, Note: "raw samples: a little less to download"},
	}
	ch.SystemVoices = map[string][]view.Choice{}
	for prog, vs := range voices {
		ch.SystemVoices[prog] = vs
	}
}

// publishSettingsAudio tells the settings window which sound server there
// is and lists its devices. It asks the server, so it runs off the
// caller's goroutine.
func (c *Core) publishSettingsAudio() {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		st := view.SettingsAudio{Devices: []view.Choice{{ID: "", Label: "Default output device", Available: true}}}
		saved := c.store.Get().Audio.Device
		if c.opts.Sound == nil {
			st.Note = "Sound is off in this run (--no-sound): Yui shows her words without a voice."
		} else if name, err := c.opts.Sound.Server(ctx); err != nil {
			st.Note = "No sound server was found, so Yui shows her words without a voice. Start PulseAudio or PipeWire and she will be heard."
		} else {
			st.Server = name
			sinks, err := c.opts.Sound.Sinks(ctx)
			if err != nil {
				c.log.Warn("voice_sinks_failed", "err", err.Error())
			}
			for _, s := range sinks {
				label := s.Description
				if s.Default {
					label += " (default)"
				}
				st.Devices = append(st.Devices, view.Choice{ID: s.Name, Label: label, Available: true})
			}
		}
		if saved != "" && !slices.ContainsFunc(st.Devices, func(ch view.Choice) bool { return ch.ID == saved }) {
			st.Devices = append(st.Devices, view.Choice{ID: saved, Label: saved, Available: false, Note: "not connected now: the default device plays"})
		}
		c.view.PublishSettings(view.TypeSettingsAudio, view.MustEncode(view.TypeSettingsAudio, st))
	}()
}

// voiceForm is the voice as the settings form shows it (no key).
func voiceForm(v settings.Voice) view.VoiceForm {
	m := maps.Clone(v.EmotionTextMap)
	if m == nil {
		m = map[string]string{}
	}
	return view.VoiceForm{Engine: v.EngineName(), Program: orDefault(v.Program, tts.ESpeak), SystemVoice: v.SystemVoice,
		Rate: v.Rate, BaseURL: v.BaseURL, Model: v.Model, EndpointVoice: v.EndpointVoice, Format: orDefault(v.Format, tts.FormatWAV),
		EmotionTextMap: m, Volume: v.VolumePercent(), Muted: v.Muted}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
