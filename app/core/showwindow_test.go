package core

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"yui/app/supervisor"
	"yui/app/view"
)

// TestShowRaisesARunningPetWindow: show_window from a pet page (the pet
// menu) and preset_action "show" from the settings page raise the pet's
// window through its shell; an unknown preset is an error.
func TestShowRaisesARunningPetWindow(t *testing.T) {
	l := &windowLauncher{}
	st := startCore(t, Options{Launch: l.launch, Exe: "/bin/yui-test"})
	id := st.c.Settings().Get().Presets[0].ID
	waitFor(t, "the pet window", func() bool { return l.count("pet:"+id) == 1 })
	shell := st.dial(t, view.RoleShell, id)
	next := func() string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, b, err := shell.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		json.Unmarshal(b, &m)
		return m["type"].(string)
	}
	if got := next(); got != view.TypeWindowConfig {
		t.Fatalf("first %s", got)
	}
	send(t, st.dial(t, view.RolePet, id), map[string]any{"type": view.TypeShowWindow})
	if got := next(); got != view.TypeWindowShow {
		t.Fatalf("got %s, want window_show", got)
	}
	send(t, st.dial(t, view.RoleSettings, ""), map[string]any{"type": view.TypePresetAction, "preset": id, "action": "show"})
	if got := next(); got != view.TypeWindowShow {
		t.Fatalf("got %s, want window_show", got)
	}
	if l.count("pet:"+id) != 1 {
		t.Fatal("showing a running window started another")
	}
	if err := st.c.ShowPet("p-nothere"); err == nil {
		t.Fatal("showed an unknown preset")
	}
}

// TestShowBringsBackAWindowTheSupervisorGaveUpOn: a pet window that fails
// to start GiveUpCount times is given up; ShowPet starts it again at once.
func TestShowBringsBackAWindowTheSupervisorGaveUpOn(t *testing.T) {
	var mu sync.Mutex
	fails, starts := 0, 0
	launch := func(sp supervisor.Spec) (supervisor.Process, error) {
		mu.Lock()
		defer mu.Unlock()
		if fails < supervisor.GiveUpCount {
			fails++
			return nil, errors.New("no display")
		}
		starts++
		return &idleProc{done: make(chan struct{})}, nil
	}
	st := startCore(t, Options{Launch: launch, Exe: "/bin/yui-test"})
	id := st.c.Settings().Get().Presets[0].ID
	// The restart delays before the give-up add up to 7.5 s.
	deadline := time.Now().Add(60 * time.Second)
	for !st.c.sup.GaveUp("pet:" + id) {
		if time.Now().After(deadline) {
			t.Fatal("the supervisor never gave up")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := st.c.ShowPet(id); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the window started again", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return starts == 1
	})
	if st.c.sup.GaveUp("pet:" + id) {
		t.Fatal("still given up")
	}
}
