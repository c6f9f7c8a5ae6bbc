package voice

import (
	"testing"

	"yui/app/i18n"
	"yui/app/tts"
)

func TestInLanguage(t *testing.T) {
	if got := (Config{}).InLanguage(i18n.Japanese).System.Voice; got != "ja" {
		t.Fatalf("default espeak voice in ja: %q", got)
	}
	if got := (Config{}).InLanguage(i18n.English).System.Voice; got != "" {
		t.Fatalf("english keeps the default: %q", got)
	}
	chosen := Config{System: tts.System{Voice: "en-us+f3"}}
	if got := chosen.InLanguage(i18n.Korean).System.Voice; got != "en-us+f3" {
		t.Fatalf("a chosen voice is kept: %q", got)
	}
	flite := Config{System: tts.System{Program: tts.Flite}}
	if got := flite.InLanguage(i18n.SimplifiedChinese).System.Voice; got != "" {
		t.Fatalf("flite has no CJK voice, left alone: %q", got)
	}
}
