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
func (h *host) LooksChanged()          {}
func (h *host) PublishArt(_, _ string) {}

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
