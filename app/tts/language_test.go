package tts

import (
	"bytes"
	"context"
	"os/exec"
	"testing"

	"yui/app/i18n"
)

// TestESpeakVoiceForExists: each language's voice is one espeak-ng lists
// (skipped where espeak-ng is not installed).
func TestESpeakVoiceForExists(t *testing.T) {
	if !Available(ESpeak) {
		t.Skip("espeak-ng not installed")
	}
	vs, err := Voices(context.Background(), ESpeak)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, v := range vs {
		have[v.ID] = true
	}
	for _, l := range i18n.Supported {
		v := ESpeakVoiceFor(l)
		if v == "" {
			if l != i18n.English {
				t.Errorf("%s has no voice", l)
			}
			continue
		}
		if !have[v] {
			t.Errorf("%s: espeak-ng has no voice %q", l, v)
		}
	}
}

// TestESpeakChineseVoiceReadsHan: the chosen Mandarin voice reads 你好 as
// Mandarin phonemes, not as English words (the trap of the plain cmn voice).
func TestESpeakChineseVoiceReadsHan(t *testing.T) {
	bin, err := exec.LookPath(ESpeak)
	if err != nil {
		t.Skip("espeak-ng not installed")
	}
	out, err := exec.Command(bin, "-q", "-x", "-v", ESpeakVoiceFor(i18n.SimplifiedChinese), "你好").Output()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("(en)")) || len(bytes.TrimSpace(out)) == 0 {
		t.Fatalf("Mandarin voice phonemes %q switch to English", out)
	}
}
