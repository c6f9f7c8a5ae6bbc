package pet

import (
	"testing"

	"yui/app/clientctx"
	"yui/app/settings"
)

// The frontmost line follows the preset's switch, read fresh each turn:
// on by default, left out when the user unticks it, back when re-ticked.
func TestFrontmostFollowsThePresetSwitch(t *testing.T) {
	p := settings.NewPreset("Yui")
	if p.Permissions.HideFrontmost {
		t.Fatal("a new preset hides the frontmost app")
	}
	front := &clientctx.Frontmost{App: "Firefox"}
	cfg := Config{Preset: p, PresetNow: func() settings.Preset { return p }, Frontmost: func() *clientctx.Frontmost { return front }}
	hook := frontmostHook(cfg)
	if got := hook(); got != front {
		t.Fatalf("default: %v", got)
	}
	p.Permissions.HideFrontmost = true
	if got := hook(); got != nil {
		t.Fatalf("hidden: %v", got)
	}
	p.Permissions.HideFrontmost = false
	if got := hook(); got != front {
		t.Fatalf("shown again: %v", got)
	}
	if frontmostHook(Config{Preset: p}) != nil {
		t.Fatal("a hook without a frontmost source")
	}
}

// A settings file written before the switch existed keeps telling.
func TestFrontmostSwitchAbsentMeansOn(t *testing.T) {
	s := settings.Defaults()
	data := `{"version":1,"active_preset":"` + s.Presets[0].ID + `","presets":[{"id":"` + s.Presets[0].ID +
		`","name":"Yui","enabled":true,"look":"yui","chat_api":"push","chat_base_url":"http://127.0.0.1:8646","key":"k","chat_id":"yui-0000abcd","permissions":{"screen":"ask"}}]}`
	got, err := settings.Parse([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if got.Presets[0].Permissions.HideFrontmost {
		t.Fatal("absent hide_frontmost read as hidden")
	}
}
