package core

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/audio"
	"yui/app/view"
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

// The Listening section: saved from the settings window (the key kept in
// the core, the form told only that there is one), applied at once (the
// microphone opens, the pill shows it), and the pet page picks the
// character spoken turns go to.
func TestListeningSettingsOpenTheMicrophoneAndThePillShowsIt(t *testing.T) {
	dir := t.TempDir()
	mic := &quietMic{}
	st := startCore(t, Options{ConfigDir: dir, Input: mic})
	p := st.c.Settings().Get().Presets[0]
	petConn := st.dial(t, view.RolePet, p.ID)
	pet := readPage(petConn)
	pet.wait(t, "listening off", func(_ []map[string]any, l map[string]map[string]any) bool {
		ls := l[view.TypeListen]
		return ls != nil && ls["mode"] == "off" && ls["open"] == false && ls["push_to_talk_key"] == "F8" && ls["target"] == true
	})
	if mic.opened() != 0 {
		t.Fatal("the microphone is open with listening off")
	}
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	page.wait(t, "the Listening section with the microphones (no monitors)", func(_ []map[string]any, l map[string]map[string]any) bool {
		sl := l[view.TypeSettingsListen]
		if sl == nil {
			return false
		}
		devs, _ := sl["devices"].([]any)
		ids := fmt.Sprint(devs)
		return len(devs) == 3 && strings.Contains(ids, "id:ec-mic") && strings.Contains(ids, "id:usb-mic") && !strings.Contains(ids, "room.monitor")
	})
	key := "sk-listen-secret"
	send(t, conn, map[string]any{"type": view.TypeSaveListen, "request_id": "l1", "key": key,
		"form": map[string]any{"on": true, "sensitivity": 70, "barge_in": true, "base_url": "http://127.0.0.1:9/v1", "language": "en", "push_to_talk_key": "F9"}})
	if res := page.result(t, "l1"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	saved := readFile(t, dir).Listen
	if !saved.On || saved.Key != key || saved.Sensitivity != 70 || !saved.BargeIn || saved.PushToTalkKey != "F9" {
		t.Fatalf("saved %+v", saved)
	}
	page.wait(t, "has_key, never the key", func(_ []map[string]any, l map[string]map[string]any) bool {
		f, _ := l[view.TypeSettingsListen]["form"].(map[string]any)
		return f != nil && f["has_key"] == true && f["on"] == true
	})
	page.wait(t, "no message carries the key", func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, m := range all {
			if strings.Contains(fmt.Sprint(m), key) {
				t.Fatal("the key reached the settings page")
			}
		}
		return true
	})
	pet.wait(t, "the pill shows the microphone open", func(_ []map[string]any, l map[string]map[string]any) bool {
		ls := l[view.TypeListen]
		return ls["mode"] == "listening" && ls["open"] == true && ls["push_to_talk_key"] == "F9"
	})
	if mic.opened() != 1 {
		t.Fatalf("microphone opened %d times", mic.opened())
	}
	// Off again: the microphone closes.
	send(t, conn, map[string]any{"type": view.TypeSaveListen, "request_id": "l2",
		"form": map[string]any{"on": false, "base_url": "http://127.0.0.1:9/v1"}})
	if res := page.result(t, "l2"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	pet.wait(t, "the pill shows listening off", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypeListen]["mode"] == "off" && l[view.TypeListen]["open"] == false
	})
	if readFile(t, dir).Listen.Key != key {
		t.Fatal("a save without a typed key lost the key")
	}
	// The pet menu picks this character as the one who hears.
	send(t, petConn, map[string]any{"type": view.TypeListenTarget})
	page.wait(t, "the target saved", func(_ []map[string]any, l map[string]map[string]any) bool {
		f, _ := l[view.TypeSettingsListen]["form"].(map[string]any)
		return f != nil && f["target"] == p.ID
	})
	if readFile(t, dir).Listen.Target != p.ID {
		t.Fatal("target not saved")
	}
}
