package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestVoiceDefaultsForAnOldFile(t *testing.T) {
	dir := t.TempDir()
	st, _, _ := Open(dir)
	s := st.Get()
	// A file written before voices existed: no voice, no audio.
	old := `{"version":1,"active_preset":"` + s.ActivePreset + `","presets":[{"id":"` + s.ActivePreset +
		`","name":"Yui","enabled":true,"look":"yui","chat_api":"push","chat_base_url":"","key":"","chat_id":"` +
		s.Presets[0].ChatID + `","model":"","reasoning_effort":"","card":"","context_window":0,"permissions":{"screen":"ask","screenshot_each_turn":false}}]}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	st, rep, err := Open(dir)
	if err != nil || rep.Problem != nil {
		t.Fatalf("old file: %+v %v", rep, err)
	}
	v := st.Get().Presets[0].Voice
	if v.EngineName() != "system" || v.VolumePercent() != 100 || v.Muted || st.Get().Audio != (Audio{}) {
		t.Fatalf("defaults: %+v", v)
	}
}

func TestVoiceRefusalsNameTheField(t *testing.T) {
	vol := func(n int) *int { return &n }
	for _, tc := range []struct {
		field string
		set   func(*Settings)
	}{
		{"presets[0].voice.engine", func(s *Settings) { s.Presets[0].Voice.Engine = "sapi" }},
		{"presets[0].voice.program", func(s *Settings) { s.Presets[0].Voice.Program = "say" }},
		{"presets[0].voice.system_voice", func(s *Settings) { s.Presets[0].Voice.SystemVoice = "-w /tmp/x" }},
		{"presets[0].voice.system_voice", func(s *Settings) { s.Presets[0].Voice.SystemVoice = "en us" }},
		{"presets[0].voice.rate", func(s *Settings) { s.Presets[0].Voice.Rate = 20 }},
		{"presets[0].voice.rate", func(s *Settings) { s.Presets[0].Voice.Rate = 900 }},
		{"presets[0].voice.base_url", func(s *Settings) { s.Presets[0].Voice.BaseURL = "ftp://tts.example/v1" }},
		{"presets[0].voice.base_url", func(s *Settings) { s.Presets[0].Voice.BaseURL = "https:///v1" }},
		{"presets[0].voice.format", func(s *Settings) { s.Presets[0].Voice.Format = "mp3" }},
		{"presets[0].voice.volume", func(s *Settings) { s.Presets[0].Voice.Volume = vol(101) }},
		{"presets[0].voice.volume", func(s *Settings) { s.Presets[0].Voice.Volume = vol(-1) }},
		{"presets[0].voice.model", func(s *Settings) { s.Presets[0].Voice.Model = "tts\n1" }},
		{"presets[0].voice.key", func(s *Settings) { s.Presets[0].Voice.Key = "sk\x00" }},
		{"presets[0].voice.emotion_text_map", func(s *Settings) { s.Presets[0].Voice.EmotionTextMap = map[string]string{"": "x"} }},
		{"presets[0].voice.emotion_text_map", func(s *Settings) { s.Presets[0].Voice.EmotionTextMap = map[string]string{"😆": " "} }},
		{"presets[0].voice.emotion_text_map", func(s *Settings) {
			m := map[string]string{}
			for i := range 33 {
				m[strings.Repeat("a", i+1)] = "x"
			}
			s.Presets[0].Voice.EmotionTextMap = m
		}},
		{"audio.device", func(s *Settings) { s.Audio.Device = "alsa\noutput" }},
	} {
		t.Run(tc.field, func(t *testing.T) {
			st, _, _ := Open(t.TempDir())
			before := st.Get()
			err := st.Update(tc.set)
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Fatalf("err %v, want a refusal of %s", err, tc.field)
			}
			if after := st.Get(); after.Presets[0].Voice.Engine != before.Presets[0].Voice.Engine || after.Audio != before.Audio {
				t.Fatal("a refused change changed the settings")
			}
		})
	}
}

func TestVoiceAcceptedAndCopied(t *testing.T) {
	st, _, _ := Open(t.TempDir())
	vol := 40
	err := st.Update(func(s *Settings) {
		s.Presets[0].Voice = Voice{Engine: "endpoint", BaseURL: "http://127.0.0.1:9/v1", Key: "sk-1", Model: "tts-1",
			EndpointVoice: "nova", Format: "pcm", EmotionTextMap: map[string]string{"👂": "whisper"}, Volume: &vol,
			Program: "flite", SystemVoice: "en-us+f3", Rate: 200}
		s.Audio = Audio{Muted: true, Device: "alsa_output.usb"}
	})
	if err != nil {
		t.Fatal(err)
	}
	got := st.Get()
	v := got.Presets[0].Voice
	if v.VolumePercent() != 40 || v.EmotionTextMap["👂"] != "whisper" || !got.Audio.Muted {
		t.Fatalf("saved %+v %+v", v, got.Audio)
	}
	// Get returns a copy: changing it changes nothing saved.
	*v.Volume = 90
	v.EmotionTextMap["👂"] = "shout"
	if again := st.Get().Presets[0].Voice; again.VolumePercent() != 40 || again.EmotionTextMap["👂"] != "whisper" {
		t.Fatalf("the store shares its voice: %+v", again)
	}
}
