package ear

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/core/route"
	"yui/app/listen/listentest"
	"yui/app/settings"
	"yui/app/view"
	"yui/app/view/viewtest"
)

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
	mic    *listentest.QuietMic
	room   *Room
	routes *route.Table
}

func newEnv(t *testing.T) *env {
	store, _, err := settings.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, store: store, id: store.Get().Presets[0].ID, pages: &viewtest.Pages{}, mic: &listentest.QuietMic{}}
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

// save writes the Listening section as a settings save does, then tells
// the room (the core's Host.Save does when the section changed).
func (e *env) save(l settings.Listen) {
	e.store.Update(func(s *settings.Settings) { l.Target = s.Listen.Target; s.Listen = l })
	e.room.Saved()
	synctest.Wait()
}

// pill says whether the pill shows mode, the microphone open or not, and
// the push-to-talk key (when key is not "").
func pill(ls map[string]any, mode string, open bool, key string) bool {
	return ls != nil && ls["mode"] == mode && ls["open"] == open && (key == "" || ls["push_to_talk_key"] == key)
}

// The saved Listening section applies at once (the microphone opens and
// closes, the pill shows it; the settings window learns only that there
// is a key), and the pet page picks the character spoken turns go to.
func TestTheMicrophoneFollowsTheSavedSectionAndThePillShowsIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		if ls := e.listen(); !pill(ls, "off", false, "F8") || ls["target"] != true {
			t.Fatalf("listening off: %v", ls)
		}
		if e.mic.Opened() != 0 {
			t.Fatal("the microphone is open with listening off")
		}
		if !e.mic.Listed(e.section()["devices"]) {
			t.Fatalf("the Listening section's microphones (no monitors): %v", e.section()["devices"])
		}
		key := "sk-listen-secret"
		e.save(settings.Listen{On: true, Key: key, Sensitivity: 70, BargeIn: true, BaseURL: "http://127.0.0.1:9/v1", Language: "en", PushToTalkKey: "F9"})
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
		if e.mic.Opened() != 1 {
			t.Fatalf("microphone opened %d times", e.mic.Opened())
		}
		// Off again: the microphone closes.
		e.save(settings.Listen{On: false, Key: key, BaseURL: "http://127.0.0.1:9/v1"})
		if !pill(e.listen(), "off", false, "") || e.mic.Opened() != 0 {
			t.Fatalf("the pill shows listening off: %v (open %d)", e.listen(), e.mic.Opened())
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

// Only a pet page picks who hears and holds push-to-talk; only the
// settings page drives the meter.
func TestListeningMessagesFromTheWrongPageAreRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		e.send(view.RoleSettings, map[string]any{"type": view.TypeListenTarget})
		if l := e.store.Get().Listen; l.Target != "" {
			t.Fatalf("the settings page picked who hears: %+v", l)
		}
		e.save(settings.Listen{On: true, BaseURL: "http://127.0.0.1:9/v1"}) // the microphone open
		e.send(view.RolePet, map[string]any{"type": view.TypeListenMeter, "on": true})
		time.Sleep(time.Second)
		synctest.Wait()
		if len(e.pages.Of(view.RoleSettings, "", view.TypeListenLevel)) != 0 {
			t.Fatal("a pet page turned the meter on")
		}
		e.send(view.RoleSettings, map[string]any{"type": view.TypeListenMeter, "on": true})
		time.Sleep(time.Second)
		synctest.Wait()
		if len(e.pages.Of(view.RoleSettings, "", view.TypeListenLevel)) == 0 {
			t.Fatal("the settings page's meter shows no level")
		}
	})
}
