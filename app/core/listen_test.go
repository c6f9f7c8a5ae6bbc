package core

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/audio"
	"yui/app/settings"
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
	// The Listening section is saved by the form's one Save: a
	// save_settings carrying it.
	saveListen := func(id string, form view.ListenForm, key *string) {
		t.Helper()
		req := formOf(readFile(t, dir))
		req.RequestID, req.Listen, req.ListenKey = id, &form, key
		send(t, conn, saveMsg(req))
	}
	saveListen("l1", view.ListenForm{On: true, Sensitivity: 70, BargeIn: true, BaseURL: "http://127.0.0.1:9/v1", Language: "en", PushToTalkKey: "F9"}, &key)
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
	saveListen("l2", view.ListenForm{On: false, BaseURL: "http://127.0.0.1:9/v1"}, nil)
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
	// A form save keeps the target the pet menu chose (the form does not
	// edit it), and a save without the section keeps the section.
	saveListen("l3", view.ListenForm{On: false, BaseURL: "http://127.0.0.1:9/v1", Target: "p-elsewhere"}, nil)
	if res := page.result(t, "l3"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	req := formOf(readFile(t, dir))
	req.RequestID = "l4"
	send(t, conn, saveMsg(req))
	if res := page.result(t, "l4"); res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
	if l := readFile(t, dir).Listen; l.Target != p.ID || l.Key != key || l.BaseURL != "http://127.0.0.1:9/v1" {
		t.Fatalf("after saves without a target / without the section: %+v", l)
	}
	// A bad field of the section is refused by name, and nothing changes.
	saveListen("bad", view.ListenForm{On: true, Language: "English"}, nil)
	if res := page.result(t, "bad"); res["ok"] != false || res["field"] != "listen.language" {
		t.Fatalf("a bad language: %v", res)
	}
	if readFile(t, dir).Listen.On {
		t.Fatal("a refused save changed the section")
	}
	// Removing the character who hears is a save like any other (it was
	// refused: "listen.target: no preset has id"); spoken turns go to the
	// main one then.
	mio := settings.NewPreset("Mio")
	st.c.Settings().Update(func(x *settings.Settings) { x.Presets = append(x.Presets, mio); x.Listen.Target = mio.ID })
	req = formOf(readFile(t, dir))
	req.RequestID, req.Presets = "rm", req.Presets[:1]
	send(t, conn, saveMsg(req))
	if res := page.result(t, "rm"); res["ok"] != true {
		t.Fatalf("removing the character who hears: %v", res)
	}
	if l := readFile(t, dir).Listen; l.Target != "" {
		t.Fatalf("the target outlived its character: %q", l.Target)
	}
}
