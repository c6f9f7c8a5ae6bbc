package standings

import (
	"sync/atomic"
	"testing"

	"yui/app/core/route"
	"yui/app/relation"
	"yui/app/settings"
	"yui/app/view"
)

type store struct{ s settings.Settings }

func (s store) Get() settings.Settings { return s.s }

func TestListsNamesAndResetsFromTheSettingsWindowOnly(t *testing.T) {
	st := store{settings.Settings{Presets: []settings.Preset{{ID: "p-yui", Name: "Yui"}, {ID: "p-mio", Name: " Mio "}}}}
	var changed atomic.Int32
	r := New(Config{ConfigDir: t.TempDir(), Store: st, OnChange: func() { changed.Add(1) }})
	defer r.Close()
	if id, ok := r.Names().Character("mio"); !ok || id != "p-mio" {
		t.Fatalf("Character(mio) = %q %v", id, ok)
	}
	if r.Names().Name("p-gone") != "p-gone" || r.Names().Name("p-yui") != "Yui" {
		t.Fatal("names")
	}
	r.Relations().Rate("p-yui", relation.User, 5, "kind")
	r.Relations().Rate("p-yui", "p-gone", -5, "rude")
	got := r.List("p-yui")
	if len(got) != 2 || got[0].Name != "You" || got[0].Value != 5 || got[1].Name != "p-gone" || got[1].Reason != "rude" {
		t.Fatalf("list = %+v", got)
	}
	if changed.Load() == 0 {
		t.Fatal("a rating did not tell the settings window")
	}
	tab := route.New(nil)
	r.Routes(tab)
	reset := view.MustEncode(view.TypeResetStanding, view.ResetStanding{Preset: "p-yui", Target: relation.User})
	tab.Serve(view.Peer{Role: view.RolePet, Preset: "p-yui"}, reset)
	if len(r.List("p-yui")) != 2 {
		t.Fatal("a pet page reset a standing")
	}
	tab.Serve(view.Peer{Role: view.RoleSettings}, reset)
	if got := r.List("p-yui"); len(got) != 1 || got[0].Target != "p-gone" {
		t.Fatalf("after reset: %+v", got)
	}
	r.Forget("p-yui")
	if len(r.List("p-yui")) != 0 {
		t.Fatal("forgotten standings listed")
	}
}
