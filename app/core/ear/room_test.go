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

// The Listening section: saved from the settings window (the key kept in
// the core, the form told only that there is one), applied at once (the
// microphone opens, the pill shows it), and the pet page picks the
// character spoken turns go to.
func TestListeningSettingsOpenTheMicrophoneAndThePillShowsIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store, _, err := settings.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		p := store.Get().Presets[0]
		pages := &viewtest.Pages{}
		mic := &quietMic{}
		r := New(Config{Store: store, Pages: pages, Host: host{map[string]*character{p.ID: {id: p.ID}}}, Input: mic})
		defer r.Close()
		routes := route.New(slog.New(slog.DiscardHandler))
		r.Routes(routes)
		send := func(role string, v map[string]any) {
			b, _ := json.Marshal(v)
			routes.Serve(view.Peer{Role: role, Preset: map[string]string{view.RolePet: p.ID}[role]}, view.Message{Type: v["type"].(string), Body: b})
			synctest.Wait()
		}
		listen := func() map[string]any { return pages.Last(view.RolePet, p.ID, view.TypeListen) }
		section := func() map[string]any { return pages.Sticky(view.RoleSettings, "", view.TypeSettingsListen) }
		result := func(id string) map[string]any {
			for _, m := range pages.Of(view.RoleSettings, "", view.TypeSettingsResult) {
				if m["request_id"] == id {
					return m
				}
			}
			t.Fatalf("no settings_result %s", id)
			return nil
		}

		r.Apply()
		r.PublishSettings()
		synctest.Wait()
		if ls := listen(); ls == nil || ls["mode"] != "off" || ls["open"] != false || ls["push_to_talk_key"] != "F8" || ls["target"] != true {
			t.Fatalf("listening off: %v", ls)
		}
		if mic.opened() != 0 {
			t.Fatal("the microphone is open with listening off")
		}
		devs, _ := section()["devices"].([]any)
		if ids := fmt.Sprint(devs); len(devs) != 3 || !strings.Contains(ids, "id:ec-mic") || !strings.Contains(ids, "id:usb-mic") || strings.Contains(ids, "room.monitor") {
			t.Fatalf("the Listening section's microphones (no monitors): %v", devs)
		}
		key := "sk-listen-secret"
		send(view.RoleSettings, map[string]any{"type": view.TypeSaveListen, "request_id": "l1", "key": key,
			"form": map[string]any{"on": true, "sensitivity": 70, "barge_in": true, "base_url": "http://127.0.0.1:9/v1", "language": "en", "push_to_talk_key": "F9"}})
		if res := result("l1"); res["ok"] != true {
			t.Fatalf("refused: %v", res)
		}
		saved := store.Get().Listen
		if !saved.On || saved.Key != key || saved.Sensitivity != 70 || !saved.BargeIn || saved.PushToTalkKey != "F9" {
			t.Fatalf("saved %+v", saved)
		}
		if f, _ := section()["form"].(map[string]any); f == nil || f["has_key"] != true || f["on"] != true {
			t.Fatalf("has_key, never the key: %v", section())
		}
		for _, m := range pages.Got(view.RoleSettings, "") {
			if strings.Contains(fmt.Sprint(m), key) {
				t.Fatal("the key reached the settings page")
			}
		}
		if ls := listen(); ls["mode"] != "listening" || ls["open"] != true || ls["push_to_talk_key"] != "F9" {
			t.Fatalf("the pill shows the microphone open: %v", ls)
		}
		if mic.opened() != 1 {
			t.Fatalf("microphone opened %d times", mic.opened())
		}
		// Off again: the microphone closes.
		send(view.RoleSettings, map[string]any{"type": view.TypeSaveListen, "request_id": "l2",
			"form": map[string]any{"on": false, "base_url": "http://127.0.0.1:9/v1"}})
		if res := result("l2"); res["ok"] != true {
			t.Fatalf("refused: %v", res)
		}
		if ls := listen(); ls["mode"] != "off" || ls["open"] != false {
			t.Fatalf("the pill shows listening off: %v", ls)
		}
		if store.Get().Listen.Key != key {
			t.Fatal("a save without a typed key lost the key")
		}
		// The pet menu picks this character as the one who hears.
		send(view.RolePet, map[string]any{"type": view.TypeListenTarget})
		if f, _ := section()["form"].(map[string]any); f == nil || f["target"] != p.ID {
			t.Fatalf("the target saved: %v", section())
		}
		if store.Get().Listen.Target != p.ID {
			t.Fatal("target not saved")
		}
		// Only the settings page saves the section.
		send(view.RolePet, map[string]any{"type": view.TypeSaveListen, "request_id": "l3", "form": map[string]any{"on": true}})
		if store.Get().Listen.On {
			t.Fatal("a pet page switched listening on")
		}
	})
}
