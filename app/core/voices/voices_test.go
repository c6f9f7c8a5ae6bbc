package voices

import (
	"encoding/json"
	"log/slog"
	"slices"
	"testing"

	"yui/app/core/route"
	"yui/app/settings"
	"yui/app/view"
	"yui/app/voice"
)

type fakeVoice struct {
	id        string
	cfgs      []voice.Config
	muted     []bool
	published int
}

func (v *fakeVoice) ID() string               { return v.id }
func (v *fakeVoice) Configure(c voice.Config) { v.cfgs = append(v.cfgs, c) }
func (v *fakeVoice) SetMuted(on bool)         { v.muted = append(v.muted, on) }
func (v *fakeVoice) PublishVoice()            { v.published++ }

type host struct {
	voices []*fakeVoice
	told   []bool
	saved  int
}

func (h *host) Voices() []Voice {
	out := make([]Voice, len(h.voices))
	for i, v := range h.voices {
		out[i] = v
	}
	return out
}
func (h *host) MuteChanged(on bool) { h.told = append(h.told, on) }
func (h *host) Saved()              { h.saved++ }

func TestMutesAreSavedAppliedAndTold(t *testing.T) {
	store, _, err := settings.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := store.Get().Presets[0].ID
	yui := &fakeVoice{id: id}
	h := &host{voices: []*fakeVoice{yui}}
	mute := &voice.Mute{}
	r := New(store, mute, h, nil)
	routes := route.New(slog.New(slog.DiscardHandler))
	r.Routes(routes)
	send := func(role string, v map[string]any) {
		b, _ := json.Marshal(v)
		routes.Serve(view.Peer{Role: role, Preset: id}, view.Message{Type: view.TypeMute, Body: b})
	}

	if err := r.SetMuted(true); err != nil {
		t.Fatal(err)
	}
	if !r.Muted() || !mute.On() || !store.Get().Audio.Muted || len(yui.cfgs) != 1 || yui.published != 1 || h.saved != 1 {
		t.Fatalf("muted %v, saved %v, configs %d, published %d, saves %d", mute.On(), store.Get().Audio.Muted, len(yui.cfgs), yui.published, h.saved)
	}
	r.SetMuted(true) // no change: nobody is told again
	send(view.RolePet, map[string]any{"type": "mute", "scope": "all", "muted": false})
	if !slices.Equal(h.told, []bool{true, false}) {
		t.Fatalf("told %v, want [true false]", h.told)
	}
	send(view.RolePet, map[string]any{"type": "mute", "scope": "character", "muted": true})
	if !slices.Equal(yui.muted, []bool{true}) || !store.Get().Presets[0].Voice.Muted {
		t.Fatalf("her mute %v, saved %v", yui.muted, store.Get().Presets[0].Voice.Muted)
	}
	// Only the pet menu mutes; an unknown scope or preset changes nothing.
	send(view.RoleSettings, map[string]any{"type": "mute", "scope": "all", "muted": true})
	send(view.RolePet, map[string]any{"type": "mute", "scope": "everyone", "muted": true})
	if mute.On() {
		t.Fatal("muted by a refused message")
	}
	if err := r.SetCharacterMuted("p-nobody", true); err == nil {
		t.Fatal("muted a preset that does not exist")
	}
}
