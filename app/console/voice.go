package console

import (
	"log/slog"

	"yui/app/listen"
	"yui/app/session"

	"yui/app/settings"
	"yui/app/voice"
)

// consoleVoice is the preset's voice on o.Sound (or the system's output),
// with the global mute of the settings. close stops it.
func consoleVoice(o Options, a settings.Audio, p settings.Preset, lg *slog.Logger, onMouth func(voice.Mouth)) (sp *voice.Speaker, close func()) {
	out := o.Sound
	own := out == nil
	if own {
		out = voice.SystemOutput(lg)
	}
	global := &voice.Mute{}
	global.Set(a.Muted)
	sp = voice.New(voice.Options{Name: "Yui — " + p.Name, Output: out, Global: global, Logger: lg, Pace: 15, OnMouth: onMouth}, voice.FromSettings(p, a))
	return sp, func() {
		sp.Close()
		if own && out != nil {
			out.Close()
		}
	}
}

// consoleListener hears the microphone for session s (--listen): always
// on, with the rest of the settings' listen section.
func consoleListener(o Options, l settings.Listen, s *session.Session, heard *listen.Heard, out *printer, lg *slog.Logger) *listen.Listener {
	in := o.Input
	if in == nil {
		in = listen.SystemInput(lg)
	}
	cfg := listen.FromSettings(l)
	cfg.On = true
	return listen.New(listen.Options{
		Input:       in,
		Transcriber: listen.EndpointFromSettings(l),
		Send:        func(text string) { s.SendSpoken(text) },
		BargeIn:     s.BargeIn,
		Speaking:    heard.Speaking,
		OnState:     out.listenState,
		Logger:      lg,
	}, cfg)
}
