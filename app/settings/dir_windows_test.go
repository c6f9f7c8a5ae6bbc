package settings

import (
	"os"
	"path/filepath"
	"testing"
)

// The settings live in %APPDATA%\yui (os.UserConfigDir), and they are
// written there and read back on Windows: run under Wine by make
// wine-test (docs/windows.md), where the rename over the old file is
// Windows' own.
func TestSettingsLiveInAppData(t *testing.T) {
	appData := t.TempDir()
	t.Setenv("APPDATA", appData)
	dir, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(appData, "yui"); dir != want {
		t.Fatalf("DefaultDir = %s, want %s", dir, want)
	}
	s, _, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Update(func(x *Settings) { x.Presets[0].Name = "Aoi" }); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(func(x *Settings) { x.Presets[0].Name = "Aoi again" }); err != nil { // a rename over the file
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "settings.json")); err != nil {
		t.Fatal(err)
	}
	again, _, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Get().Presets[0].Name; got != "Aoi again" {
		t.Fatalf("read back %q", got)
	}
}
