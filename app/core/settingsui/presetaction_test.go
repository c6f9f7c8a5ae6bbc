package settingsui

import (
	"log/slog"
	"slices"
	"testing"

	"yui/app/core/route"
	"yui/app/view"
)

func TestPresetActsReachTheRunningCharacterFromTheSettingsWindowOnly(t *testing.T) {
	var did []string
	acts := PresetActs[string]{
		Find:      func(id string) (string, bool) { return "ch-" + id, id == "p-yui" },
		Reconnect: func(ch string) { did = append(did, "reconnect "+ch) },
		Reset:     func(ch string) { did = append(did, "reset "+ch) },
		Show:      func(id string) error { did = append(did, "show "+id); return nil },
	}
	lg := slog.New(slog.DiscardHandler)
	tab := route.New(lg)
	acts.Routes(tab, lg)
	act := func(role, preset, action string) {
		tab.Serve(view.Peer{Role: role}, view.MustEncode(view.TypePresetAction, view.PresetAction{Preset: preset, Action: action}))
	}
	act(view.RoleSettings, "p-yui", view.TypeReconnect)
	act(view.RoleSettings, "p-yui", view.TypeReset)
	act(view.RoleSettings, "p-yui", "show")
	act(view.RolePet, "p-yui", view.TypeReset)          // a pet page may not
	act(view.RoleSettings, "p-off", view.TypeReconnect) // no running character
	act(view.RoleSettings, "p-yui", "dance")            // no such action
	if want := []string{"reconnect ch-p-yui", "reset ch-p-yui", "show p-yui"}; !slices.Equal(did, want) {
		t.Fatalf("did %v, want %v", did, want)
	}
}
