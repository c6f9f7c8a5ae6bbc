package ear

import (
	"yui/app/i18n"
	"yui/app/settings"
)

// heardListen is the listen settings the transcriber gets: with no
// language chosen (listen.language ""), the hint is the language of the
// character spoken turns go to (her speech_language, else the UI
// language), as an ISO 639-1 code. The user talks to her in the language
// she speaks; a user who speaks another sets listen.language.
func heardListen(s settings.Settings, systemLocale string) settings.Listen {
	l := s.Listen
	if l.Language != "" {
		return l
	}
	target := l.Target
	if target == "" {
		target = s.ActivePreset
	}
	lang := s.UILanguage(systemLocale)
	if p, ok := s.Preset(target); ok {
		lang = s.SpokenLanguage(p, systemLocale)
	}
	l.Language = lang.Base()
	return l
}

// transcribeListen is heardListen with the machine's locale.
func transcribeListen(s settings.Settings) settings.Listen {
	return heardListen(s, i18n.SystemLocale())
}
