package settingsui

import (
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/core/route"
	"yui/app/settings"
	"yui/app/view"
	"yui/app/view/viewtest"
)

// host is the core as the room sees it: a save is written, and the
// window's process is counted.
type host struct {
	store *settings.Store

	mu            sync.Mutex
	shown, ended  int
	opened, saves int
}

func (h *host) Save(change func(*settings.Settings) error) (before, after settings.Settings, err error) {
	h.mu.Lock()
	h.saves++
	h.mu.Unlock()
	err = h.store.Change(func(s *settings.Settings) error {
		before = *s
		before.Presets = slices.Clone(s.Presets)
		return change(s)
	})
	return before, h.store.Get(), err
}

func (h *host) count(n *int) int                           { h.mu.Lock(); defer h.mu.Unlock(); return *n }
func (h *host) ShowWindow()                                { h.mu.Lock(); h.shown++; h.mu.Unlock() }
func (h *host) EndWindow()                                 { h.mu.Lock(); h.ended++; h.mu.Unlock() }
func (h *host) Opened()                                    { h.mu.Lock(); h.opened++; h.mu.Unlock() }
func (h *host) Hidden()                                    {}
func (h *host) ShortcutNote() string                       { return "" }
func (h *host) StoredHistory(string) []view.DelegationItem { return nil }
func (h *host) DemoURL() string                            { return "" }

type env struct {
	store  *settings.Store
	pages  *viewtest.Pages
	host   *host
	room   *Room
	routes *route.Table
}

func newEnv(t *testing.T, idle time.Duration) *env {
	t.Helper()
	store, _, err := settings.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &env{store: store, pages: &viewtest.Pages{}, host: &host{store: store}}
	e.room = New(Config{Store: store, Pages: e.pages, Host: e.host, Available: func(string) bool { return true }, IdleExit: idle})
	e.routes = route.New(slog.New(slog.DiscardHandler))
	e.room.Routes(e.routes)
	return e
}

func (e *env) send(role string, v map[string]any) {
	b, _ := json.Marshal(v)
	e.routes.Serve(view.Peer{Role: role}, view.Message{Type: v["type"].(string), Body: b})
	synctest.Wait()
}

func (e *env) focusSeq() float64 {
	f := e.pages.Sticky(view.RoleSettings, "", view.TypeSettingsFocus)
	if f == nil {
		return 0
	}
	return f["seq"].(float64)
}

// A settings window hidden for its idle time ends; the next open starts
// (shows) it again. Shown again before then, it is kept.
func TestHiddenSettingsWindowEndsAfterIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 50*time.Millisecond)
		id := e.store.Get().Presets[0].ID
		e.room.Open(id, "")
		e.send(view.RoleShell, map[string]any{"type": view.TypeWindowHidden})
		time.Sleep(50*time.Millisecond - time.Nanosecond)
		synctest.Wait()
		if n := e.host.count(&e.host.ended); n != 0 {
			t.Fatalf("ended %d times before its idle time", n)
		}
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		if n := e.host.count(&e.host.ended); n != 1 {
			t.Fatalf("ended %d times after its idle time", n)
		}
		e.room.Open(id, "")
		if n := e.host.count(&e.host.shown); n != 2 {
			t.Fatalf("shown %d times", n)
		}
	})
}

// Reopening disarms the idle exit: a hidden window shown again is kept.
func TestReopenedSettingsWindowIsKept(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, time.Hour)
		id := e.store.Get().Presets[0].ID
		e.room.Open(id, "")
		e.room.Hidden()
		if !e.room.idleArmed() {
			t.Fatal("hiding armed no idle exit")
		}
		e.room.Open(id, "")
		if e.room.idleArmed() || e.host.count(&e.host.ended) != 0 {
			t.Fatalf("after reopening: idle armed %v, ended %d", e.room.idleArmed(), e.host.count(&e.host.ended))
		}
		// A page may not claim to be the shell.
		e.send(view.RoleSettings, map[string]any{"type": view.TypeWindowHidden})
		e.send(view.RoleSettings, map[string]any{"type": "open_settings"})
		if e.focusSeq() < 3 {
			t.Fatalf("the page's open_settings not handled (focus %v)", e.focusSeq())
		}
		if e.room.idleArmed() {
			t.Fatal("a settings page armed the idle exit")
		}
		time.Sleep(2 * time.Hour)
		synctest.Wait()
		if n := e.host.count(&e.host.ended); n != 0 {
			t.Fatalf("a shown window ended %d times", n)
		}
	})
}

func TestOpenFocusesTheSectionAndLooksAtTheDevicesAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 0)
		id := e.store.Get().Presets[0].ID
		e.send(view.RolePet, map[string]any{"type": "open_settings", "section": "permissions"})
		e.room.Open(id, "nowhere")
		synctest.Wait()
		var got []string
		for _, f := range e.pages.Of(view.RoleSettings, "", view.TypeSettingsFocus) {
			got = append(got, f["section"].(string))
		}
		if !slices.Equal(got, []string{"permissions", ""}) {
			t.Fatalf("focus sections %q", got)
		}
		if a := e.pages.Sticky(view.RoleSettings, "", view.TypeSettingsAudio); a == nil || e.host.count(&e.host.opened) != 2 {
			t.Fatalf("settings_audio %v, opened %d", a, e.host.opened)
		}
	})
}
