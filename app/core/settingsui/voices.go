package settingsui

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"yui/app/phrase"
	"yui/app/settings"
	"yui/app/tts"
	"yui/app/view"
)

// programs are the system-voice programs installed and their voices,
// read once.
type programs struct {
	mu      sync.Mutex
	voices  map[string][]view.Choice // program → voices, read once
	read    bool
	present map[string]bool // program → installed
}

// programs reports which system-voice programs are installed and their
// voices, reading them once.
func (r *Room) programs() (map[string]bool, map[string][]view.Choice) {
	r.sound.mu.Lock()
	defer r.sound.mu.Unlock()
	if !r.sound.read {
		r.sound.read = true
		r.sound.present = map[string]bool{}
		r.sound.voices = map[string][]view.Choice{}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		for _, prog := range []string{tts.ESpeak, tts.Flite} {
			if !tts.Available(prog) {
				continue
			}
			r.sound.present[prog] = true
			vs, err := tts.Voices(ctx, prog)
			if err != nil {
				r.log.Warn("voice_list_failed", "program", prog, "err", err.Error())
				continue
			}
			list := make([]view.Choice, len(vs))
			for i, v := range vs {
				list[i] = view.Choice{ID: v.ID, Label: v.Label, Available: true}
			}
			r.sound.voices[prog] = list
		}
	}
	return r.sound.present, r.sound.voices
}

// voiceChoices adds the voice options to ch.
func (r *Room) voiceChoices(ch *view.SettingsChoices) {
	present, voices := r.programs()
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

// PublishAudio tells the settings window which sound server there
// is and lists its devices. It asks the server, so it runs off the
// caller's goroutine.
func (r *Room) PublishAudio() {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		st := view.SettingsAudio{Devices: []view.Choice{{ID: "", Label: "Default output device", Available: true}}}
		saved := r.cfg.Store.Get().Audio.Device
		if r.cfg.Sound == nil {
			st.Note, st.NoteMsg = phrase.New("core.note.no_sound_flag").English(), new(phrase.New("core.note.no_sound_flag"))
		} else if name, err := r.cfg.Sound.Server(ctx); err != nil {
			st.Note, st.NoteMsg = phrase.New("core.note.no_sound_server").English(), new(phrase.New("core.note.no_sound_server"))
		} else {
			st.Server = name
			sinks, err := r.cfg.Sound.Sinks(ctx)
			if err != nil {
				r.log.Warn("voice_sinks_failed", "err", err.Error())
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
		r.cfg.Pages.PublishSettings(view.TypeSettingsAudio, view.MustEncode(view.TypeSettingsAudio, st))
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
