package desktop

import (
	"encoding/json"
	"errors"
	"image"
	"log/slog"
	"os"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/autostart"
	"yui/app/capture"
	"yui/app/core/route"
	"yui/app/core/windows"
	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/supervisor/supervisortest"
	"yui/app/view"
	"yui/app/view/viewtest"
)

// host is the core as the room sees it: every enabled preset runs.
type host struct {
	store   *settings.Store
	windows bool // window processes run

	mu    sync.Mutex
	muted []bool
}

func (h *host) HasPet(id string) bool {
	all := h.store.Get()
	p, ok := all.Preset(id)
	return ok && p.Enabled
}

func (h *host) PetIDs() []string {
	var ids []string
	for _, p := range h.store.Get().Presets {
		if p.Enabled {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

func (h *host) PetSpec(p settings.Preset) supervisor.Spec {
	return supervisor.Spec{Name: windows.Pet(p.ID), Path: "/bin/yui-test", Args: []string{"window", "--role", "pet", "--preset", p.ID}}
}

func (h *host) Hold(fn func(bool)) { fn(h.windows) }
func (h *host) Changed()           {}

func (h *host) SetMuted(on bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.muted = append(h.muted, on)
	return h.store.Update(func(s *settings.Settings) { s.Audio.Muted = on })
}

// env is a room on a settings file, its windows run by a real supervisor
// that starts idle processes. Use it inside a synctest bubble.
type env struct {
	t      *testing.T
	store  *settings.Store
	pages  *viewtest.Pages
	launch *supervisortest.Launcher
	sup    *supervisor.Supervisor
	host   *host
	room   *Room
	routes *route.Table
}

type opts struct {
	presets   []string // the names of presets added after the first run's
	launch    *supervisortest.Launcher
	autostart Autostart
	screen    capture.Source
}

func newEnv(t *testing.T, o opts) *env {
	t.Helper()
	store, _, err := settings.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store.Update(func(s *settings.Settings) {
		for _, n := range o.presets {
			s.Presets = append(s.Presets, settings.NewPreset(n))
		}
	})
	if o.launch == nil {
		o.launch = &supervisortest.Launcher{}
	}
	if o.screen == nil {
		o.screen = &capture.Fixed{}
	}
	e := &env{t: t, store: store, pages: &viewtest.Pages{}, launch: o.launch, host: &host{store: store, windows: true}}
	e.sup = supervisor.New(o.launch.Launch, slog.New(slog.DiscardHandler))
	t.Cleanup(e.sup.Stop)
	e.room = New(Config{Store: store, Pages: e.pages, Windows: e.sup, Host: e.host, Screen: o.screen, Autostart: o.autostart})
	e.routes = route.New(slog.New(slog.DiscardHandler))
	e.room.Routes(e.routes)
	return e
}

// runAll starts every enabled character's window, as the core's Run does.
func (e *env) runAll() {
	for _, p := range e.store.Get().Presets {
		if p.Enabled {
			e.sup.Run(e.host.PetSpec(p))
		}
	}
	synctest.Wait()
}

// send is a message from a page (or shell) of role and preset.
func (e *env) send(role, preset string, v map[string]any) {
	b, _ := json.Marshal(v)
	e.routes.Serve(view.Peer{Role: role, Preset: preset}, view.Message{Type: v["type"].(string), Body: b})
	synctest.Wait()
}

// settle lets every window the supervisor stops reach its end (it
// escalates after ExitGrace).
func settle() {
	time.Sleep(supervisor.ExitGrace + supervisor.StopGrace)
	synctest.Wait()
}

// changes records what OnChange reports.
type changes struct {
	mu   sync.Mutex
	last []State
}

func (c *changes) add(s State) {
	c.mu.Lock()
	c.last = append(c.last, s)
	c.mu.Unlock()
}

func (c *changes) latest() (State, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.last) == 0 {
		return State{}, 0
	}
	return c.last[len(c.last)-1], len(c.last)
}

func TestPetMenuHidesHerAndTheTrayShowsHerAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, opts{presets: []string{"Mio"}})
		ch := &changes{}
		e.room.OnChange(ch.add)
		e.runAll()
		mio := e.store.Get().Presets[1].ID
		if e.launch.Count(windows.Pet(mio)) != 1 || !e.sup.Running(windows.Pet(mio)) {
			t.Fatal("Mio's window is not running")
		}
		if s := e.room.State(); len(s.Characters) != 2 || s.Characters[1].Name != "Mio" || !s.Characters[1].Shown {
			t.Fatalf("state %+v", s)
		}
		e.room.Publish(mio)
		if e.pages.Last(view.RolePet, mio, view.TypeDesktop) == nil {
			t.Fatal("no desktop topic")
		}
		e.send(view.RolePet, mio, map[string]any{"type": "desktop_action", "action": "hide"})
		settle()
		if e.sup.Supervised(windows.Pet(mio)) {
			t.Fatal("Mio's window not stopped")
		}
		if !e.pages.Disconnected(view.RoleShell, mio) {
			t.Fatal("Mio's shell still connected")
		}
		if s, n := ch.latest(); n == 0 || s.Characters[1].Shown || !s.Characters[0].Shown {
			t.Fatalf("after hide the tray got %+v (%d changes)", s, n)
		}
		// Her session stays: she is still a character of the core, and the
		// room asked for nothing but her window's end.
		if !e.room.cfg.Host.HasPet(mio) {
			t.Fatal("hiding ended Mio")
		}

		e.room.SetShown(mio, true)
		synctest.Wait()
		if e.launch.Count(windows.Pet(mio)) != 2 || !e.sup.Running(windows.Pet(mio)) {
			t.Fatal("Mio's window did not start again")
		}
		if s, _ := ch.latest(); !s.Characters[1].Shown {
			t.Fatalf("after show the tray got %+v", s)
		}
	})
}

func TestShowCharactersBringsBackEveryHiddenOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, opts{presets: []string{"Mio"}})
		e.runAll()
		all := e.store.Get()
		for _, p := range all.Presets {
			if !e.sup.Running(windows.Pet(p.ID)) {
				t.Fatalf("no window for %s", p.Name)
			}
			e.room.SetShown(p.ID, false)
		}
		settle()
		for _, p := range all.Presets {
			if e.sup.Supervised(windows.Pet(p.ID)) {
				t.Fatalf("%s's window not stopped", p.Name)
			}
		}
		e.room.ShowWindows()
		synctest.Wait()
		for _, p := range all.Presets {
			if e.launch.Count(windows.Pet(p.ID)) != 2 || !e.sup.Running(windows.Pet(p.ID)) {
				t.Fatalf("%s's window not back", p.Name)
			}
		}
		for _, ch := range e.room.State().Characters {
			if !ch.Shown {
				t.Fatalf("%s still hidden", ch.Name)
			}
		}
	})
}

// A character switched off in the settings is no longer listed, nor
// hidden: switched on again, she shows.
func TestSwitchedOffAndOnAgainSheIsShown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, opts{presets: []string{"Mio"}})
		e.runAll()
		mio := e.store.Get().Presets[1].ID
		e.room.SetShown(mio, false)
		enable := func(on bool) {
			e.store.Update(func(s *settings.Settings) { s.Presets[1].Enabled = on })
			e.room.Changed() // what a settings save does
		}
		enable(false)
		if s := e.room.State(); len(s.Characters) != 1 {
			t.Fatalf("a switched-off character is listed: %+v", s)
		}
		enable(true)
		if s := e.room.State(); len(s.Characters) != 2 || !s.Characters[1].Shown {
			t.Fatalf("switched on again: %+v", s)
		}
	})
}

func TestStartAtLoginFromThePetMenuWritesTheOSEntry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		as, err := autostart.New("/usr/bin/yui", nil, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		e := newEnv(t, opts{autostart: as})
		p := e.store.Get().Presets[0]
		e.room.Publish(p.ID)
		desk := func() map[string]any { return e.pages.Last(view.RolePet, p.ID, view.TypeDesktop) }
		if d := desk(); d == nil || d["start_at_login_available"] != true || d["start_at_login"] != false {
			t.Fatalf("desktop topic %v", d)
		}
		e.send(view.RolePet, p.ID, map[string]any{"type": "desktop_action", "action": "start_at_login_on"})
		if desk()["start_at_login"] != true {
			t.Fatal("not checked")
		}
		if _, err := os.Stat(as.Where()); err != nil {
			t.Fatalf("no entry: %v", err)
		}
		e.send(view.RolePet, p.ID, map[string]any{"type": "desktop_action", "action": "start_at_login_off"})
		if desk()["start_at_login"] != false {
			t.Fatal("not unchecked")
		}
		if _, err := os.Stat(as.Where()); !os.IsNotExist(err) {
			t.Fatalf("entry left: %v", err)
		}
	})
}

func TestMuteFromThePetMenuGoesToTheCore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, opts{})
		p := e.store.Get().Presets[0]
		e.send(view.RolePet, p.ID, map[string]any{"type": "desktop_action", "action": "mute"})
		e.send(view.RolePet, p.ID, map[string]any{"type": "desktop_action", "action": "unmute"})
		if !slices.Equal(e.host.muted, []bool{true, false}) {
			t.Fatalf("mutes %v", e.host.muted)
		}
	})
}

func TestQuitFromThePetMenu(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, opts{})
		p := e.store.Get().Presets[0]
		e.send(view.RolePet, p.ID, map[string]any{"type": "desktop_action", "action": "quit"})
		select {
		case <-e.room.Quitting():
		default:
			t.Fatal("quit did not reach the core")
		}
		e.room.Quit() // twice is fine
	})
}

func TestOnlyPetPagesSendDesktopActions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, opts{})
		e.send(view.RoleSettings, "", map[string]any{"type": "desktop_action", "action": "quit"})
		select {
		case <-e.room.Quitting():
			t.Fatal("the settings page quit the core")
		default:
		}
	})
}

// TestShowRaisesARunningPetWindow: show_window from a pet page (the pet
// menu) and the settings page's "show" raise the pet's window through its
// shell; an unknown preset is an error.
func TestShowRaisesARunningPetWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, opts{})
		e.runAll()
		id := e.store.Get().Presets[0].ID
		e.send(view.RolePet, id, map[string]any{"type": view.TypeShowWindow})
		if n := len(e.pages.Of(view.RoleShell, id, view.TypeWindowShow)); n != 1 {
			t.Fatalf("%d window_show, want 1", n)
		}
		e.send(view.RoleSettings, "", map[string]any{"type": view.TypeShowWindow, "preset": id})
		if n := len(e.pages.Of(view.RoleShell, id, view.TypeWindowShow)); n != 2 {
			t.Fatalf("%d window_show, want 2", n)
		}
		if e.launch.Count(windows.Pet(id)) != 1 {
			t.Fatal("showing a running window started another")
		}
		if err := e.room.ShowPet("p-nothere"); err == nil {
			t.Fatal("showed an unknown preset")
		}
	})
}

// TestShowBringsBackAWindowTheSupervisorGaveUpOn: a pet window that fails
// to start GiveUpCount times is given up; ShowPet starts it again at once.
func TestShowBringsBackAWindowTheSupervisorGaveUpOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		fails := 0
		l := &supervisortest.Launcher{Fail: func(supervisor.Spec) error {
			mu.Lock()
			defer mu.Unlock()
			if fails < supervisor.GiveUpCount {
				fails++
				return errors.New("no display")
			}
			return nil
		}}
		e := newEnv(t, opts{launch: l})
		e.runAll()
		id := e.store.Get().Presets[0].ID
		// The restart delays before the give-up add up to 7.5 s.
		time.Sleep(8 * time.Second)
		synctest.Wait()
		if !e.sup.GaveUp(windows.Pet(id)) {
			t.Fatal("the supervisor never gave up")
		}
		if err := e.room.ShowPet(id); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if l.Count(windows.Pet(id)) != 1 {
			t.Fatal("the window did not start again")
		}
		if e.sup.GaveUp(windows.Pet(id)) {
			t.Fatal("still given up")
		}
	})
}

// screen1280 is one 1280×800 monitor.
func screen1280() *capture.Fixed {
	return &capture.Fixed{Screens: []capture.Monitor{{Index: 0, Label: "screen", Bounds: image.Rect(0, 0, 1280, 800)}}}
}
