//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"yui/app/settings"
)

// The settings file a desktop test reads back or seeds before the app starts.

// readSettings reads the app's settings file without touching it (a
// settings.Store would replace a file it cannot parse).
func readSettings(t *testing.T, dir string) settings.Settings {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, settings.FileName))
	if err != nil {
		t.Fatal(err)
	}
	s, err := settings.Parse(b)
	if err != nil {
		t.Fatalf("the app's settings file does not parse: %v", err)
	}
	return s
}

// seedSettings writes a first-run settings file with the pet window placed
// at (x, y), so the test knows where to look.
func seedSettings(t *testing.T, dir string, x, y int) settings.Settings {
	t.Helper()
	st, _, err := settings.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Update(func(s *settings.Settings) {
		s.Presets[0].Window = &settings.Position{X: x, Y: y}
	}); err != nil {
		t.Fatal(err)
	}
	return st.Get()
}

const (
	winW, winH          = 300, 420
	skinR, skinG, skinB = 0xff, 0xe6, 0xd5 // the character's face
	hoodR, hoodG, hoodB = 0xb9, 0xa4, 0xe8 // her hoodie
)
