package wardrobe

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/clientctx"
	"yui/app/core/looks"
	"yui/app/lookfolder"
	"yui/app/settings"
	"yui/app/view"
	"yui/app/view/viewtest"
)

type host struct {
	mu    sync.Mutex
	turns []clientctx.Trigger
}

func (h *host) StartTouchTurn(_ string, tr clientctx.Trigger) {
	h.mu.Lock()
	h.turns = append(h.turns, tr)
	h.mu.Unlock()
}
func (h *host) LooksChanged() {}

// A touch is logged; with the look's touch turns on it starts a turn, at
// most one per TouchTurnGap; a touch that is no pat or poke of her head or
// body is refused.
func TestTouchesStartATurnAtMostOncePerGap(t *testing.T) {
	dir := t.TempDir()
	model, err := os.ReadFile(filepath.Join("..", "..", "..", "frontend", "tests", "vrm", "yui-test-1.0.vrm"))
	if err != nil {
		t.Fatal(err)
	}
	id, _, err := lookfolder.ImportVRM(dir, "My Model.vrm", bytes.NewReader(model), looks.Builtin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "looks", id, "look.json"), []byte(`{"name":"Yui test model","touch_turns":true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	store, _, err := settings.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	store.Update(func(s *settings.Settings) { s.Presets[0].Look = id })
	preset := store.Get().Presets[0].ID
	synctest.Test(t, func(t *testing.T) {
		h := &host{}
		r := New(Config{Store: store, Pages: &viewtest.Pages{}, Host: h, ConfigDir: dir,
			Looks: looks.Catalog{ConfigDir: dir, Log: slog.New(slog.DiscardHandler)}})
		if v := r.cfg.Looks.VRM(id); v == nil || !v.TouchTurns {
			t.Fatal("touch turns not read")
		}
		r.Touched(preset, view.Touch{Kind: "poke", Where: "body"})
		r.Touched(preset, view.Touch{Kind: "poke", Where: "body"})
		r.Touched(preset, view.Touch{Kind: "kick", Where: "body"})
		if len(h.turns) != 1 {
			t.Fatalf("%d touch turns, want 1", len(h.turns))
		}
		time.Sleep(TouchTurnGap)
		r.Touched(preset, view.Touch{Kind: "pat", Where: "head"})
		if len(h.turns) != 2 {
			t.Fatalf("%d touch turns after the gap, want 2", len(h.turns))
		}
	})
}

// A character's look options are saved in the settings file (a bad value
// refused, naming the field) and win over the look's: touch turns off
// there stops the turns the look's look.json turns on; "" gives it back.
func TestCharacterLookOptionsWinOverTheLooks(t *testing.T) {
	dir := t.TempDir()
	model, err := os.ReadFile(filepath.Join("..", "..", "..", "frontend", "tests", "vrm", "yui-test-1.0.vrm"))
	if err != nil {
		t.Fatal(err)
	}
	id, _, err := lookfolder.ImportVRM(dir, "My Model.vrm", bytes.NewReader(model), looks.Builtin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "looks", id, "look.json"), []byte(`{"name":"Yui test model","touch_turns":true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	store, _, err := settings.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	store.Update(func(s *settings.Settings) { s.Presets[0].Look = id })
	preset := store.Get().Presets[0].ID
	var logs bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		h := &host{}
		r := New(Config{Store: store, Pages: &viewtest.Pages{}, Host: h, ConfigDir: dir, Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
			Looks: looks.Catalog{ConfigDir: dir, Log: slog.New(slog.DiscardHandler)}})
		r.options(view.LookOptions{Preset: preset, Breathing: "low", TouchTurns: "off"})
		if o := store.Get().Presets[0].LookOptions; o != (settings.LookOptions{Breathing: "low", TouchTurns: "off"}) {
			t.Fatalf("saved %+v", o)
		}
		r.Touched(preset, view.Touch{Kind: "poke", Where: "body"})
		if len(h.turns) != 0 {
			t.Fatal("a touch started a turn with her touch turns off")
		}
		r.options(view.LookOptions{Preset: preset, Breathing: "fast"})
		if !bytes.Contains(logs.Bytes(), []byte("look_options.breathing")) {
			t.Fatalf("a bad value is not refused naming the field: %s", logs.String())
		}
		if o := store.Get().Presets[0].LookOptions; o.Breathing != "low" {
			t.Fatalf("a refused change changed the options: %+v", o)
		}
		r.options(view.LookOptions{Preset: preset})
		r.Touched(preset, view.Touch{Kind: "pat", Where: "head"})
		if len(h.turns) != 1 {
			t.Fatalf("%d turns with the look's own touch turns (on), want 1", len(h.turns))
		}
		if v := r.cfg.Looks.VRM(id); v == nil || !v.TouchTurns || v.Breathing != lookfolder.BreathingOff {
			t.Fatal("a character's options changed the look's look.json")
		}
	})
}
