package voice

import (
	"maps"

	"yui/app/settings"
	"yui/app/tts"
)

// FromSettings is preset p's voice with the shared audio settings a.
func FromSettings(p settings.Preset, a settings.Audio) Config {
	v := p.Voice
	return Config{
		Engine:   v.EngineName(),
		System:   tts.System{Program: v.Program, Voice: v.SystemVoice, Rate: v.Rate},
		Endpoint: tts.Endpoint{BaseURL: v.BaseURL, Key: v.Key, Model: v.Model, Voice: v.EndpointVoice, Format: v.Format},
		TextMap:  maps.Clone(v.EmotionTextMap),
		Volume:   float64(v.VolumePercent()) / 100,
		Muted:    v.Muted,
		Device:   a.Device,
	}
}
