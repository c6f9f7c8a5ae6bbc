package tts_test

import (
	"testing"

	"yui/app/tts"
)

func TestSpeakable(t *testing.T) {
	for in, want := range map[string]string{
		"Plain sentence.":                   "Plain sentence.",
		"This is **really** important.":     "This is really important.",
		"Run `make test` now.":              "Run make test now.",
		"An *emphasised* word.":             "An emphasised word.",
		"An _emphasised_ word.":             "An emphasised word.",
		"keep snake_case_names as they are": "keep snake_case_names as they are",
		"## A heading":                      "A heading",
		"- a bullet":                        "a bullet",
		"> quoted  text":                    "quoted text",
		"2 * 3 = 6":                         "2 * 3 = 6",
		"~~old~~ new":                       "old new",
		"…":                                 "",
		"?!":                                "",
		"   ":                               "",
	} {
		if got := tts.Speakable(in); got != want {
			t.Errorf("Speakable(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInstructions(t *testing.T) {
	for _, tc := range []struct{ tone, caption, want string }{
		{"", "", ""},
		{"joyfully", "", "Tone: joyfully."},
		{"", "Speak slowly, like a bedtime story.", "Speak slowly, like a bedtime story."},
		{"whisper.", "Lean in.", "Tone: whisper. Lean in."},
	} {
		if got := tts.Instructions(tc.tone, tc.caption); got != tc.want {
			t.Errorf("Instructions(%q, %q) = %q, want %q", tc.tone, tc.caption, got, tc.want)
		}
	}
}
