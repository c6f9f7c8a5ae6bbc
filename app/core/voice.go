package core

import (
	"yui/app/core/voices"
	"yui/app/cue"
	"yui/app/settings"
	"yui/app/voice"
)

// spokenVoice is preset p's voice now: the shared audio settings, in the
// language she speaks (settings.SpokenLanguage, voice.Config.InLanguage).
func (c *Core) spokenVoice(p settings.Preset) voice.Config { return voices.Spoken(c.store.Get(), p) }

// presetVocabulary is the vocabulary the preset's hello declares: the
// ids her look's renderer draws with her voice engine's tag table.
func (c *Core) presetVocabulary(p settings.Preset) cue.Vocabulary {
	return voice.FromSettings(p, settings.Audio{}).Vocabulary(c.looks.Vocabulary(p.Look))
}

// vocabularyChanged reports a voice change that changes the hello's
// vocabulary (the tag table, or an engine that has one): a new connection
// declares it.
func (c *Core) vocabularyChanged(a, b settings.Preset) bool {
	return !c.presetVocabulary(a).Equal(c.presetVocabulary(b))
}

// Voices is the characters' voices: the global and per-character mute
// (what the tray's Mute all voices uses).
func (c *Core) Voices() *voices.Room { return c.voices }

// voicesHost is what the voices room asks of the core.
type voicesHost struct{ c *Core }

func (h voicesHost) Voices() []voices.Voice { return each[voices.Voice](h.c) }

func (h voicesHost) MuteChanged(on bool) {
	if on {
		h.c.talk.End("mute")
	}
	if h.c.opts.OnMuteChanged != nil {
		h.c.opts.OnMuteChanged(on)
	}
	h.c.desk.Changed()
}

func (h voicesHost) Saved() { h.c.sui.PublishState() }

var _ voices.Voice = (*pet)(nil)
