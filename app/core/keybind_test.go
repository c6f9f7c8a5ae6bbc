package core

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"yui/app/permission"
	"yui/app/settings"
	"yui/app/view"
)

// helloRecorder is a push backend on loopback that records the hello
// frames it gets (and then keeps the socket open, saying nothing).
type helloRecorder struct {
	srv    *httptest.Server
	mu     sync.Mutex
	hellos []map[string]any
	got    chan struct{}
}

func newHelloRecorder(t *testing.T) *helloRecorder {
	t.Helper()
	h := &helloRecorder{got: make(chan struct{}, 16)}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		_, b, err := c.Read(r.Context())
		if err != nil {
			return
		}
		var m map[string]any
		json.Unmarshal(b, &m)
		h.mu.Lock()
		h.hellos = append(h.hellos, m)
		h.mu.Unlock()
		h.got <- struct{}{}
		c.Read(r.Context()) // until the client goes
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *helloRecorder) keys() []any {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []any
	for _, m := range h.hellos {
		out = append(out, m["key"])
	}
	return out
}

// settingsForm returns the latest settings_state's form of preset id.
func settingsForm(t *testing.T, page *pageReader, id string, rev float64) map[string]any {
	t.Helper()
	var form map[string]any
	page.wait(t, "settings_state after the save", func(_ []map[string]any, l map[string]map[string]any) bool {
		st := l[view.TypeSettingsState]
		if st == nil || st["revision"].(float64) < rev {
			return false
		}
		for _, p := range st["presets"].([]any) {
			if pm := p.(map[string]any); pm["id"] == id {
				form = pm
			}
		}
		return form != nil
	})
	return form
}

func revision(page *pageReader) float64 {
	if st := page.last(view.TypeSettingsState); st != nil {
		return st["revision"].(float64)
	}
	return 0
}

// TestAStoredKeyNeverGoesToAnotherBackend is the takeover: a
// settings page saves a new chat_base_url with screen "allow" and a
// screenshot with each message. The stored key must not reach the new
// backend, and the standing screen permissions go back to asking.
func TestAStoredKeyNeverGoesToAnotherBackend(t *testing.T) {
	good, evil := newHelloRecorder(t), newHelloRecorder(t)
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) {
		x.Presets[0].ChatBaseURL = good.srv.URL
		x.Presets[0].Key = "the-real-key"
	})
	st := startCore(t, Options{ConfigDir: dir})
	id := s.Get().Presets[0].ID
	<-good.got
	if k := good.keys(); len(k) != 1 || k[0] != "the-real-key" {
		t.Fatalf("the key's own backend got %v", k)
	}

	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	page.wait(t, "settings_state", func(_ []map[string]any, l map[string]map[string]any) bool { return l[view.TypeSettingsState] != nil })
	rev := revision(page)
	req := formOf(st.c.store.Get())
	req.RequestID = "takeover"
	req.Presets[0].ChatBaseURL = evil.srv.URL + "/path"
	req.Presets[0].Permissions = view.PermissionsForm{Screen: "allow", ScreenshotEachTurn: true}
	send(t, conn, saveMsg(req))
	if res := page.result(t, "takeover"); res["ok"] != true {
		t.Fatalf("save: %v", res)
	}
	<-evil.got
	if k := evil.keys(); len(k) != 1 || k[0] != "" {
		t.Fatalf("the new backend got key %v, want none", k)
	}
	saved := readFile(t, dir).Presets[0]
	if saved.Key != "" || saved.Permissions.Screen != "ask" || saved.Permissions.ScreenshotEachTurn {
		t.Fatalf("saved %+v %+v: want no key, screen ask, no screenshot each turn", saved.Key != "", saved.Permissions)
	}
	if g := st.c.pet(id).Gate; g.Mode() != permission.ModeAsk || g.EachTurn() {
		t.Fatalf("gate mode %v each turn %v", g.Mode(), g.EachTurn())
	}
	form := settingsForm(t, page, id, rev+1)
	if form["has_key"] != false || !strings.Contains(form["key_note"].(string), "another server") || form["screen_note"] == nil {
		t.Fatalf("form %v: want no key, with the key and screen notes", form)
	}

	// The next save (no key typed): the key note stays, the screen note
	// goes, and "allow" for this backend now holds.
	rev = revision(page)
	req.RequestID = "allow-again"
	req.Presets[0].Permissions = view.PermissionsForm{Screen: "allow"}
	send(t, conn, saveMsg(req))
	page.result(t, "allow-again")
	form = settingsForm(t, page, id, rev+1)
	if form["key_note"] == nil || form["screen_note"] != nil || readFile(t, dir).Presets[0].Permissions.Screen != "allow" {
		t.Fatalf("form %v after a second save", form)
	}
	// A key typed for it: the note goes.
	rev = revision(page)
	req.RequestID = "key"
	k := "evil-side-key"
	req.Presets[0].Key = &k
	send(t, conn, saveMsg(req))
	page.result(t, "key")
	if form = settingsForm(t, page, id, rev+1); form["key_note"] != nil || form["has_key"] != true {
		t.Fatalf("form %v after a key was saved", form)
	}
}

// TestKeyTypedWithTheNewURLIsKept: moving to another backend with its key
// in the same save keeps that key (no note); the screen permissions still
// go back to asking.
func TestKeyTypedWithTheNewURLIsKept(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) {
		x.Presets[0].ChatBaseURL = "https://a.example"
		x.Presets[0].Key = "key-a"
		x.Presets[0].Permissions.Screen = "allow"
	})
	st := startCore(t, Options{ConfigDir: dir})
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	req := formOf(st.c.store.Get())
	req.Presets[0].ChatBaseURL = "https://b.example"
	k := "key-b"
	req.Presets[0].Key = &k
	send(t, conn, saveMsg(req))
	page.result(t, req.RequestID)
	if p := readFile(t, dir).Presets[0]; p.Key != "key-b" || p.Permissions.Screen != "ask" {
		t.Fatalf("saved key %q screen %q", p.Key, p.Permissions.Screen)
	}
}

// TestSameServerKeepsTheKey: another path (or http written as ws) on the
// same server is the same backend: the key and permissions stay.
func TestSameServerKeepsTheKey(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) {
		x.Presets[0].ChatBaseURL = "http://127.0.0.1:9/a"
		x.Presets[0].Key = "key-a"
		x.Presets[0].Permissions = settings.Permissions{Screen: "allow", ScreenshotEachTurn: true}
	})
	st := startCore(t, Options{ConfigDir: dir})
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	req := formOf(st.c.store.Get())
	req.Presets[0].ChatBaseURL = "ws://127.0.0.1:9/b/"
	send(t, conn, saveMsg(req))
	page.result(t, req.RequestID)
	if p := readFile(t, dir).Presets[0]; p.Key != "key-a" || p.Permissions.Screen != "allow" || !p.Permissions.ScreenshotEachTurn {
		t.Fatalf("saved %+v", p)
	}
}

// TestAlwaysAnsweredForTheOldBackendIsNotSavedForTheNew: a prompt the old
// backend opened, answered "Always" after the preset moved, does not give
// the new backend standing access.
func TestAlwaysAnsweredForTheOldBackendIsNotSavedForTheNew(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) { x.Presets[0].ChatBaseURL = "https://a.example" })
	st := startCore(t, Options{ConfigDir: dir})
	id := s.Get().Presets[0].ID
	old := st.c.pet(id)
	if _, err := old.Gate.Request(0); err == nil {
		t.Fatal("ask mode granted without a prompt")
	}
	pr, ok := old.Gate.Open()
	if !ok {
		t.Fatal("no prompt")
	}
	// The file moves to another backend (as a save would) before the
	// answer lands.
	st.c.store.Update(func(x *settings.Settings) { x.Presets[0].ChatBaseURL = "https://evil.example" })
	if err := old.Gate.Answer(pr.ID, permission.Always); err == nil {
		t.Fatal("the answer was saved for a backend that changed")
	}
	if got := readFile(t, dir).Presets[0].Permissions.Screen; got != "ask" {
		t.Fatalf("screen %q saved for the new backend", got)
	}
}
