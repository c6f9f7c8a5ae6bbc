package settings

import (
	"fmt"
	"strings"

	"yui/app/i18n"
)

// The language settings (docs/languages.md): Settings.Language is the UI
// language of every window, the tray and the core's lines; a preset's
// SpeechLanguage overrides it for the lines that character speaks (her
// fillers and failure lines, her system voice). Both are "" to follow the
// system locale, or one of i18n.Supported spelled exactly (en, ja, ko,
// zh-Hans).

// UILanguage is the UI language in force: Language, or the match of the
// system locale when it is "".
func (s Settings) UILanguage(systemLocale string) i18n.Lang {
	return i18n.Resolve(s.Language, systemLocale)
}

// SpokenLanguage is the language a preset's character speaks in: her
// SpeechLanguage, else the UI language.
func (s Settings) SpokenLanguage(p Preset, systemLocale string) i18n.Lang {
	if l, err := i18n.Parse(p.SpeechLanguage); err == nil && l != "" {
		return l
	}
	return s.UILanguage(systemLocale)
}

// validateLanguage refuses a language that is not supported, naming the
// field.
func validateLanguage(s *Settings) error {
	if _, err := i18n.Parse(s.Language); err != nil {
		return &FieldError{Field: "language", Reason: strings.TrimPrefix(err.Error(), "i18n: ")}
	}
	for i, p := range s.Presets {
		if _, err := i18n.Parse(p.SpeechLanguage); err != nil {
			return &FieldError{Field: fmt.Sprintf("presets[%d].speech_language", i), Reason: err.Error()}
		}
	}
	return nil
}
