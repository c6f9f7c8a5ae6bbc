package companion

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/clientctx"
	"yui/app/core/route"
	"yui/app/session"
	"yui/app/settings"
	"yui/app/view"
	"yui/app/view/viewtest"
)

type host struct {
	mu     sync.Mutex
	chars  []Character
	turns  []clientctx.Trigger
	to     []string
	quiets int
}

func (h *host) Characters() []Character { h.mu.Lock(); defer h.mu.Unlock(); return h.chars }
func (h *host) StartTurn(id string, t clientctx.Trigger) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.turns, h.to = append(h.turns, t), append(h.to, id)
}
func (h *host) QuietChanged() { h.mu.Lock(); h.quiets++; h.mu.Unlock() }
func (h *host) count() int    { h.mu.Lock(); defer h.mu.Unlock(); return len(h.turns) }

// input is the user at the keyboard: present, typing when told.
type input struct {
	mu     sync.Mutex
	typing bool
}

func (i *input) Idle() (time.Duration, bool) { return time.Second, true }
func (i *input) Typing() bool                { i.mu.Lock(); defer i.mu.Unlock(); return i.typing }

func newRoom(t *testing.T) (*Room, *host, *input, *viewtest.Pages, *settings.Store, string) {
	t.Helper()
	store, _, err := settings.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	second := settings.NewPreset("Rin")
	if err := store.Update(func(s *settings.Settings) {
		s.Presets = append(s.Presets, second)
		s.Proactive.CheckinsOff, s.Proactive.QuietHoursOff = true, true
	}); err != nil {
		t.Fatal(err)
	}
	main := store.Get().Presets[0].ID
	h := &host{chars: []Character{{ID: main, TellsApp: true}, {ID: second.ID}}}
	in := &input{}
	pages := &viewtest.Pages{}
	r := New(Config{Store: store, Pages: pages, Host: h, Input: in})
	return r, h, in, pages, store, second.ID
}

// The room greets through the main character once her connection is
// ready, holds back while a turn runs or she speaks, and follows the
// quiet switches: hers sends the turn to the next character, the global
// one to nobody.
func TestRoomStartsTurnsAndFollowsTheCast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, h, in, _, store, second := newRoom(t)
		main := store.Get().Presets[0].ID
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.Run(ctx)
		time.Sleep(time.Minute)
		if h.count() != 0 {
			t.Fatal("a turn before her connection was ready")
		}
		r.OnEvent(main, session.Socket{State: "ready"})
		r.OnEvent(main, session.Composer{Locked: true})
		in.mu.Lock()
		in.typing = true
		in.mu.Unlock()
		time.Sleep(time.Minute)
		r.OnEvent(main, session.Composer{Locked: false})
		time.Sleep(time.Minute)
		if h.count() != 0 {
			t.Fatal("a turn while typing")
		}
		in.mu.Lock()
		in.typing = false
		in.mu.Unlock()
		time.Sleep(5 * time.Minute) // the quiet gap after the turn
		synctest.Wait()
		if h.count() != 1 || h.to[0] != main || h.turns[0].Label != "good night" {
			t.Fatalf("turns %+v to %v", h.turns, h.to)
		}

		// Her own switch: the next greeting goes to the other character.
		if err := r.SetCharacterQuiet(main, true); err != nil {
			t.Fatal(err)
		}
		r.OnEvent(second, session.Socket{State: "ready"})
		all := store.Get()
		if p, _ := all.Preset(main); !p.Quiet {
			t.Fatal("her quiet switch not saved")
		}
		time.Sleep(6 * time.Hour)
		synctest.Wait()
		if h.count() < 2 || h.to[len(h.to)-1] != second {
			t.Fatalf("turns to %v", h.to)
		}
		// The global switch: nobody.
		if err := r.SetQuiet(true); err != nil {
			t.Fatal(err)
		}
		n := h.count()
		time.Sleep(12 * time.Hour)
		synctest.Wait()
		if h.count() != n {
			t.Fatalf("%d turns with the quiet companion on", h.count()-n)
		}
		cancel()
		synctest.Wait()
	})
}

// The pet menu's items reach the switches; the page's companion topic
// follows them.
func TestQuietFromThePetMenu(t *testing.T) {
	r, h, _, pages, store, _ := newRoom(t)
	main := store.Get().Presets[0].ID
	routes := route.New(slog.New(slog.DiscardHandler))
	r.Routes(routes)
	send := func(role string, v view.Quiet) {
		b, _ := json.Marshal(v)
		routes.Serve(view.Peer{Role: role, Preset: main}, view.Message{Type: view.TypeQuiet, Body: b})
	}
	send(view.RolePet, view.Quiet{Scope: view.QuietCharacter, Quiet: true})
	all := store.Get()
	if p, _ := all.Preset(main); !p.Quiet {
		t.Fatal("her switch not saved")
	}
	if got := pages.Sticky(view.RolePet, main, view.TypeCompanion); got["quiet"] != true || got["global_quiet"] != false {
		t.Fatalf("companion topic %v", got)
	}
	send(view.RolePet, view.Quiet{Scope: view.QuietAll, Quiet: true})
	if !store.Get().Proactive.Quiet || !r.Quiet() {
		t.Fatal("the global switch not saved")
	}
	if got := pages.Sticky(view.RolePet, main, view.TypeCompanion); got["global_quiet"] != true {
		t.Fatalf("companion topic %v", got)
	}
	send(view.RoleMessage, view.Quiet{Scope: view.QuietAll, Quiet: false})
	if !store.Get().Proactive.Quiet {
		t.Fatal("a message window switched it")
	}
	if h.quiets != 2 {
		t.Fatalf("told %d times", h.quiets)
	}
}
