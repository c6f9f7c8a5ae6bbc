package settings

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestListenDefaultsAndRefusals(t *testing.T) {
	st, _, _ := Open(t.TempDir())
	l := st.Get().Listen
	if l.On || l.BargeIn || l.SensitivityPercent() != 50 || l.PushToTalk() != "F8" {
		t.Fatalf("defaults %+v: listening and barge-in must be off", l)
	}
	for _, tc := range []struct {
		field string
		set   func(*Listen)
	}{
		{"listen.sensitivity", func(l *Listen) { l.Sensitivity = 101 }},
		{"listen.device", func(l *Listen) { l.Device = "mic\n1" }},
		{"listen.base_url", func(l *Listen) { l.BaseURL = "ftp://stt.example" }},
		{"listen.key", func(l *Listen) { l.Key = "sk\x00" }},
		{"listen.language", func(l *Listen) { l.Language = "English" }},
		{"listen.target", func(l *Listen) { l.Target = "p-nobody" }},
		{"listen.push_to_talk_key", func(l *Listen) { l.PushToTalkKey = "a" }},
	} {
		err := st.Update(func(s *Settings) { tc.set(&s.Listen) })
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: %v", tc.field, err)
		}
	}
	id := st.Get().Presets[0].ID
	if err := st.Update(func(s *Settings) {
		s.Listen = Listen{On: true, Sensitivity: 80, BargeIn: true, BaseURL: "http://127.0.0.1:9/v1", Language: "en", Target: id, PushToTalkKey: "F9"}
	}); err != nil {
		t.Fatal(err)
	}
	if st2, _, _ := Open(filepath.Dir(st.Path())); st2.Get().Listen != st.Get().Listen {
		t.Errorf("not saved: %+v", st2.Get().Listen)
	}
}
