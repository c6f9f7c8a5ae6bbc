package cast

import (
	"slices"
	"testing"

	"yui/app/settings"
)

func TestPlanStopsStartsRemakesAndUpdates(t *testing.T) {
	p := func(id string, on bool) settings.Preset { return settings.Preset{ID: id, Name: id, Enabled: on} }
	before := settings.Settings{ActivePreset: "a", Presets: []settings.Preset{
		p("a", true), p("gone", true), p("off", true), p("key", true), p("name", true), p("mcp", true), p("voice", true), p("new", false)}}
	after := settings.Settings{ActivePreset: "a", Presets: []settings.Preset{
		p("a", true), p("off", false), p("key", true), p("name", true), p("mcp", true), p("voice", true), p("new", true), p("fresh", true)}}
	after.Presets[2].Key = "sk-new"
	after.Presets[3].Name = "Renamed"
	after.Presets[4].MCPServers = []settings.MCPServer{{Name: "files", Command: "mcp-files"}}
	got := Plan(before, after, func(old, p settings.Preset) bool { return p.ID == "voice" })
	type step struct {
		do Action
		id string
	}
	var steps []step
	for _, s := range got {
		id := s.New.ID
		if s.Do == Stop || s.Do == Forget {
			id = s.Old.ID
		}
		steps = append(steps, step{s.Do, id})
	}
	want := []step{{Stop, "gone"}, {Forget, "gone"}, {Stop, "off"}, {Update, "a"}, {Remake, "key"}, {Update, "name"},
		{Remake, "mcp"}, {Remake, "voice"}, {Start, "new"}, {Start, "fresh"}}
	if !slices.Equal(steps, want) {
		t.Fatalf("plan = %v, want %v", steps, want)
	}
	if !got[3].Main || got[4].Main {
		t.Fatalf("main: %+v", got[3:5])
	}
	// A new main character: both the old and the new main are made anew.
	after.ActivePreset = "name"
	for _, s := range Plan(before, after, func(_, _ settings.Preset) bool { return false }) {
		if (s.New.ID == "a" || s.New.ID == "name") && s.Do != Remake {
			t.Fatalf("%s: %v, want Remake", s.New.ID, s.Do)
		}
	}
}

func TestSetStartsUnderItsLockAndTakes(t *testing.T) {
	var s Set[string]
	s.Put("a", "A")
	s.Put("b", "B")
	var started []string
	s.Start(func(v string) { started = append(started, v) })
	slices.Sort(started)
	if !s.Started() || !slices.Equal(started, []string{"A", "B"}) {
		t.Fatalf("started %v %v", s.Started(), started)
	}
	if v, ok := s.Take("a"); !ok || v != "A" {
		t.Fatalf("take a: %q %v", v, ok)
	}
	if _, ok := s.Get("a"); ok {
		t.Fatal("a still there")
	}
	if ids := s.IDs(); !slices.Equal(ids, []string{"b"}) {
		t.Fatalf("ids %v", ids)
	}
	if all := s.TakeAll(); !slices.Equal(all, []string{"B"}) || len(s.All()) != 0 {
		t.Fatalf("take all %v, left %v", all, s.All())
	}
	s.Stop()
	if s.Started() {
		t.Fatal("still started")
	}
}
