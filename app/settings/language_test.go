package settings

import (
	"errors"
	"testing"

	"yui/app/i18n"
)

func TestValidateLanguage(t *testing.T) {
	for _, ok := range []string{"", "en", "ja", "ko", "zh-Hans"} {
		s := Defaults()
		s.Language = ok
		s.Presets[0].SpeechLanguage = ok
		if err := Validate(&s); err != nil {
			t.Errorf("language %q refused: %v", ok, err)
		}
	}
	cases := []struct {
		name, field string
		set         func(*Settings)
	}{
		{"ui language", "language", func(s *Settings) { s.Language = "jp" }},
		{"ui traditional chinese", "language", func(s *Settings) { s.Language = "zh-Hant" }},
		{"speech language", "presets[0].speech_language", func(s *Settings) { s.Presets[0].SpeechLanguage = "ja-JP" }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Defaults()
			tc.set(&s)
			var fe *FieldError
			if err := Validate(&s); !errors.As(err, &fe) || fe.Field != tc.field {
				t.Fatalf("Validate = %v, want a FieldError on %s", err, tc.field)
			}
		})
	}
}

func TestLanguagesInForce(t *testing.T) {
	s := Defaults()
	if got := s.UILanguage("ja_JP.UTF-8"); got != i18n.Japanese {
		t.Fatalf("first run follows the system: %q", got)
	}
	s.Language = "ko"
	if got := s.UILanguage("ja_JP.UTF-8"); got != i18n.Korean {
		t.Fatalf("setting wins: %q", got)
	}
	p := s.Presets[0]
	if got := s.SpokenLanguage(p, "ja_JP.UTF-8"); got != i18n.Korean {
		t.Fatalf("no override speaks the UI language: %q", got)
	}
	p.SpeechLanguage = "zh-Hans"
	if got := s.SpokenLanguage(p, "ja_JP.UTF-8"); got != i18n.SimplifiedChinese {
		t.Fatalf("override: %q", got)
	}
}
