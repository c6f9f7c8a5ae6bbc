package console

import (
	"log/slog"

	"yui/app/settings"
	"yui/app/voice"
)

// consoleVoice is the preset's voice on o.Sound (or the system's output),
// with the global mute of the settings. close stops it.
func consoleVoice(o Options, a settings.Audio, p settings.Preset, lg *slog.Logger) (sp *voice.Speaker, close func()) {
	out := o.Sound
	own := out == nil
	if own {
		out = voice.SystemOutput(lg)
	}
	global := &voice.Mute{}
	global.Set(a.Muted)
	sp = voice.New(voice.Options{Name: "Yui — " + p.Name, Output: out, Global: global, Logger: lg, Pace: 15}, voice.FromSettings(p, a))
	return sp, func() {
		sp.Close()
		if own && out != nil {
			out.Close()
		}
	}
}
