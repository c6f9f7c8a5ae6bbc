package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLookOptionsRefusalsNameTheField(t *testing.T) {
	for _, tc := range []struct {
		field string
		set   func(*Settings)
	}{
		{"presets[0].look_options.breathing", func(s *Settings) { s.Presets[0].LookOptions.Breathing = "fast" }},
		{"presets[0].look_options.touch_turns", func(s *Settings) { s.Presets[0].LookOptions.TouchTurns = "true" }},
	} {
		t.Run(tc.field, func(t *testing.T) {
			st, _, _ := Open(t.TempDir())
			err := st.Update(tc.set)
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Fatalf("err %v, want a refusal of %s", err, tc.field)
			}
			if st.Get().Presets[0].LookOptions != (LookOptions{}) {
				t.Fatal("a refused change changed the settings")
			}
		})
	}
}

func TestLookOptionsKeepTheLooksDefaultUnlessSet(t *testing.T) {
	dir := t.TempDir()
	st, _, _ := Open(dir)
	if o := st.Get().Presets[0].LookOptions; o.BreathingOr("low") != "low" || o.BreathingOr("off") != "off" || !o.TouchTurnsOr(true) || o.TouchTurnsOr(false) {
		t.Fatalf("unset options do not follow the look: %+v", o)
	}
	if err := st.Update(func(s *Settings) {
		s.Presets[0].LookOptions = LookOptions{Breathing: LookBreathingOff, TouchTurns: LookOn}
	}); err != nil {
		t.Fatal(err)
	}
	st, _, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	o := st.Get().Presets[0].LookOptions
	if o.BreathingOr("low") != "off" || !o.TouchTurnsOr(false) {
		t.Fatalf("saved options %+v do not win over the look's", o)
	}
	if err := st.Update(func(s *Settings) { s.Presets[0].LookOptions = LookOptions{TouchTurns: LookOff} }); err != nil {
		t.Fatal(err)
	}
	if st.Get().Presets[0].LookOptions.TouchTurnsOr(true) {
		t.Fatal("touch turns off does not win over the look's on")
	}
	// Unset, the field is left out of the file.
	if err := st.Update(func(s *Settings) { s.Presets[0].LookOptions = LookOptions{} }); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "look_options") {
		t.Fatalf("unset look options written: %s", b)
	}
}
