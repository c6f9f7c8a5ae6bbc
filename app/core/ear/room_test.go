package ear

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/audio"
	"yui/app/core/route"
	"yui/app/settings"
	"yui/app/view"
	"yui/app/view/viewtest"
)

// quietMic is a microphone that hears a quiet room, in real time, and
// counts how often it is open.
type quietMic struct {
	mu   sync.Mutex
	open int
}

func (m *quietMic) Sources(context.Context) ([]audio.Source, error) {
	return []audio.Source{
		{Name: "room.monitor", Description: "Monitor of Speakers", Monitor: true},
		{Name: "usb-mic", Description: "USB microphone", Default: true},
		{Name: "ec-mic", Description: "Echo-cancelled microphone", EchoCancelled: true},
	}, nil
}

func (m *quietMic) Capture(ctx context.Context, o audio.CaptureOptions) (audio.Capture, error) {
	m.mu.Lock()
	m.open++
	m.mu.Unlock()
	return &quietCapture{m: m, done: make(chan struct{}), n: o.Format.Samples(o.Chunk), every: o.Chunk}, nil
}

func (m *quietMic) opened() int { m.mu.Lock(); defer m.mu.Unlock(); return m.open }

type quietCapture struct {
	m     *quietMic
	done  chan struct{}
	once  sync.Once
	n     int
	every time.Duration
}

func (c *quietCapture) Read(ctx context.Context) ([]int16, time.Time, error) {
	t := time.NewTimer(c.every)
	defer t.Stop()
	select {
	case <-t.C:
		return make([]int16, c.n), time.Now().Add(-c.every), nil
	case <-ctx.Done():
		return nil, time.Time{}, ctx.Err()
	case <-c.done:
		return nil, time.Time{}, audio.ErrClosed
	}
}

func (c *quietCapture) Close() error {
	c.once.Do(func() {
		close(c.done)
		c.m.mu.Lock()
		c.m.open--
		c.m.mu.Unlock()
	})
	return nil
}

// character is a character who is never heard; she records her turns.
type character struct {
	id     string
	mu     sync.Mutex
	spoken []string
}

func (c *character) ID() string                           { return c.id }
func (c *character) Speaking(time.Time) (bool, time.Time) { return false, time.Time{} }
func (c *character) SendSpoken(text string) {
	c.mu.Lock()
	c.spoken = append(c.spoken, text)
	c.mu.Unlock()
}
func (c *character) BargeIn() {}

type host struct{ chars map[string]*character }

func (h host) Character(id string) Character {
	if c := h.chars[id]; c != nil {
		return c
	}
	return nil
}

func (h host) Characters() []Character {
	var out []Character
	for _, c := range h.chars {
		out = append(out, c)
	}
	return out
}

// env is an ear on a settings file, with one character and a quiet
// microphone. Use it inside a synctest bubble.
type env struct {
	t      *testing.T
	store  *settings.Store
	id     string
	pages  *viewtest.Pages
	mic    *quietMic
	room   *Room
	routes *route.Table
}

func newEnv(t *testing.T) *env {
	store, _, err := settings.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, store: store, id: store.Get().Presets[0].ID, pages: &viewtest.Pages{}, mic: &quietMic{}}
	e.room = New(Config{Store: store, Pages: e.pages, Host: host{map[string]*character{e.id: {id: e.id}}}, Input: e.mic})
	t.Cleanup(e.room.Close)
	e.routes = route.New(slog.New(slog.DiscardHandler))
	e.room.Routes(e.routes)
	e.room.Apply()
	e.room.PublishSettings()
	synctest.Wait()
	return e
}

// send is a message from the pet page (role pet) or the settings page.
func (e *env) send(role string, v map[string]any) {
	b, _ := json.Marshal(v)
	preset := ""
	if role == view.RolePet {
		preset = e.id
	}
	e.routes.Serve(view.Peer{Role: role, Preset: preset}, view.Message{Type: v["type"].(string), Body: b})
	synctest.Wait()
}

// listen is the pill's voice segment on her page.
func (e *env) listen() map[string]any { return e.pages.Last(view.RolePet, e.id, view.TypeListen) }

// section is the settings window's Listening section.
func (e *env) section() map[string]any {
	return e.pages.Sticky(view.RoleSettings, "", view.TypeSettingsListen)
}

func (e *env) form() map[string]any {
	f, _ := e.section()["form"].(map[string]any)
	return f
}

// result is the settings_result of request id.
func (e *env) result(id string) map[string]any {
	for _, m := range e.pages.Of(view.RoleSettings, "", view.TypeSettingsResult) {
		if m["request_id"] == id {
			return m
		}
	}
	e.t.Fatalf("no settings_result %s", id)
	return nil
}

// pill says whether the pill shows mode, the microphone open or not, and
// the push-to-talk key (when key is not "").
func pill(ls map[string]any, mode string, open bool, key string) bool {
	return ls != nil && ls["mode"] == mode && ls["open"] == open && (key == "" || ls["push_to_talk_key"] == key)
}

// microphones says whether the section lists exactly the two microphones
// (no monitor) after Automatic.
func microphones(section map[string]any) bool {
	devs, _ := section["devices"].([]any)
	ids := fmt.Sprint(devs)
	return len(devs) == 3 && strings.Contains(ids, "id:ec-mic") && strings.Contains(ids, "id:usb-mic") && !strings.Contains(ids, "room.monitor")
}

// The Listening section: saved from the settings window (the key kept in
// the core, the form told only that there is one), applied at once (the
// microphone opens, the pill shows it), and the pet page picks the
// character spoken turns go to.
func TestListeningSettingsOpenTheMicrophoneAndThePillShowsIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		if ls := e.listen(); !pill(ls, "off", false, "F8") || ls["target"] != true {
			t.Fatalf("listening off: %v", ls)
		}
		if e.mic.opened() != 0 {
			t.Fatal("the microphone is open with listening off")
		}
		if !microphones(e.section()) {
			t.Fatalf("the Listening section's microphones (no monitors): %v", e.section()["devices"])
		}
		key := "sk-listen-secret"
		e.send(view.RoleSettings, map[string]any{"type": view.TypeSaveListen, "request_id": "l1", "key": key,
			"form": map[string]any{"on": true, "sensitivity": 70, "barge_in": true, "base_url": "http://127.0.0.1:9/v1", "language": "en", "push_to_talk_key": "F9"}})
		if res := e.result("l1"); res["ok"] != true {
			t.Fatalf("refused: %v", res)
		}
		saved := e.store.Get().Listen
		if want := (settings.Listen{On: true, Key: key, Sensitivity: 70, BargeIn: true, BaseURL: "http://127.0.0.1:9/v1", Language: "en",
			PushToTalkKey: "F9"}); saved != want {
			t.Fatalf("saved %+v", saved)
		}
		if f := e.form(); f["has_key"] != true || f["on"] != true {
			t.Fatalf("has_key, never the key: %v", f)
		}
		for _, m := range e.pages.Got(view.RoleSettings, "") {
			if strings.Contains(fmt.Sprint(m), key) {
				t.Fatal("the key reached the settings page")
			}
		}
		if !pill(e.listen(), "listening", true, "F9") {
			t.Fatalf("the pill shows the microphone open: %v", e.listen())
		}
		if e.mic.opened() != 1 {
			t.Fatalf("microphone opened %d times", e.mic.opened())
		}
		// Off again: the microphone closes.
		e.send(view.RoleSettings, map[string]any{"type": view.TypeSaveListen, "request_id": "l2",
			"form": map[string]any{"on": false, "base_url": "http://127.0.0.1:9/v1"}})
		if res := e.result("l2"); res["ok"] != true {
			t.Fatalf("refused: %v", res)
		}
		if !pill(e.listen(), "off", false, "") {
			t.Fatalf("the pill shows listening off: %v", e.listen())
		}
		if e.store.Get().Listen.Key != key {
			t.Fatal("a save without a typed key lost the key")
		}
		// The pet menu picks this character as the one who hears.
		e.send(view.RolePet, map[string]any{"type": view.TypeListenTarget})
		if f := e.form(); f["target"] != e.id {
			t.Fatalf("the target saved: %v", f)
		}
		if e.store.Get().Listen.Target != e.id {
			t.Fatal("target not saved")
		}
	})
}

// Only the settings page saves the section and drives the meter; only a
// pet page holds push-to-talk and picks who hears.
func TestListeningMessagesFromTheWrongPageAreRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		e.send(view.RolePet, map[string]any{"type": view.TypeSaveListen, "request_id": "l3", "form": map[string]any{"on": true}})
		e.send(view.RoleSettings, map[string]any{"type": view.TypeListenTarget})
		if l := e.store.Get().Listen; l.On || l.Target != "" {
			t.Fatalf("the wrong pages changed the settings: %+v", l)
		}
		if len(e.pages.Of(view.RoleSettings, "", view.TypeSettingsResult)) != 0 {
			t.Fatal("a pet page's save was answered")
		}
	})
}
