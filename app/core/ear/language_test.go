package ear

import (
	"testing"

	"yui/app/settings"
)

func TestHeardListenHint(t *testing.T) {
	s := settings.Defaults()
	if got := heardListen(s, "ja_JP.UTF-8").Language; got != "ja" {
		t.Fatalf("system ja: hint %q", got)
	}
	s.Presets[0].SpeechLanguage = "zh-Hans"
	if got := heardListen(s, "ja_JP.UTF-8").Language; got != "zh" {
		t.Fatalf("her speech language: hint %q", got)
	}
	s.Listen.Language = "en"
	if got := heardListen(s, "ja_JP.UTF-8").Language; got != "en" {
		t.Fatalf("a chosen hint is kept: %q", got)
	}
}
