package core

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/applog"
	"yui/app/settings"
	"yui/app/view"
	"yui/transport/chatcompletions"
)

// proactiveScale compresses the proactive clock: a real second is ten
// minutes (a check-in at 30 min comes 3 s after the greeting).
const proactiveScale = 600

// fakePresence is the user at the keyboard: present (input a second ago),
// typing while the test says so.
type fakePresence struct {
	mu     sync.Mutex
	typing bool
}

func (p *fakePresence) Idle() (time.Duration, bool) { return time.Second, true }
func (p *fakePresence) Typing() bool                { p.mu.Lock(); defer p.mu.Unlock(); return p.typing }
func (p *fakePresence) Fullscreen() bool            { return false }
func (p *fakePresence) setTyping(on bool)           { p.mu.Lock(); p.typing = on; p.mu.Unlock() }

// proactiveSettings writes settings with every hour allowed (the test may
// run at night) and check-ins at 30 min, then edit's changes.
func proactiveSettings(t *testing.T, dir string, edit func(*settings.Settings)) {
	t.Helper()
	store, _, err := settings.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Update(func(s *settings.Settings) {
		s.Proactive.QuietHoursOff = true
		s.Proactive.CheckinMinutes = []int{30}
		if edit != nil {
			edit(s)
		}
	}); err != nil {
		t.Fatal(err)
	}
}

// logWith waits for a log line of event whose fields hold want.
func logWith(t *testing.T, logs *recorder, event string, want map[string]string) {
	t.Helper()
	logs.bell.await(t, fmt.Sprintf("%s %v", event, want), func() bool {
		for _, l := range logs.lines() {
			if l["event"] != event {
				continue
			}
			ok := true
			for k, v := range want {
				ok = ok && l[k] == v
			}
			if ok {
				return true
			}
		}
		return false
	})
}

// The real core on the embedded demo backend (push), with the proactive
// clock compressed: a typing burst holds the first greeting back (logged),
// the greeting comes once the typing stops and the demo answers it in
// character, then an idle check-in comes and is answered too.
func TestProactiveTurnsOnTheDemoBackend(t *testing.T) {
	t.Parallel() // real-time speech on its own core and demo backend
	dir := t.TempDir()
	proactiveSettings(t, dir, nil)
	logs := &recorder{}
	pres := &fakePresence{typing: true}
	st := startCore(t, Options{ConfigDir: dir, Demo: true, DemoAddr: "127.0.0.1:0", Logger: applog.New(logs, slog.LevelInfo),
		Presence: pres, ProactiveScale: proactiveScale})
	p := st.c.Settings().Get().Presets[0]
	page := readPage(st.dial(t, view.RolePet, p.ID))
	logWith(t, logs, "proactive_skipped", map[string]string{"reason": "typing", "source": "greeting"})
	pres.setTyping(false)
	logWith(t, logs, "proactive_fired", map[string]string{"source": "greeting"})
	said := func(what string) {
		t.Helper()
		page.wait(t, "her "+what, func(all []map[string]any, _ map[string]map[string]any) bool {
			for _, m := range all {
				if m["type"] == view.TypeBubble && m["kind"] == "speech" && strings.Contains(fmt.Sprint(m["text"]), what) {
					return true
				}
			}
			return false
		})
	}
	said("Good ") // morning, afternoon, evening or night: whenever the test runs
	logWith(t, logs, "proactive_fired", map[string]string{"source": "checkin"})
	said("Just checking in.")
	for _, l := range logs.lines() {
		if l["event"] == "demo.turn" && l["scenario"] != "proactive" {
			t.Fatalf("a turn the demo did not read as proactive: %v", l)
		}
	}
}

// strictChat is a Chat Completions server as strict as real ones about the
// user message (400 without one, or with an empty one), recording each
// request's messages and answering a line.
type strictChat struct {
	mu   sync.Mutex
	reqs [][]map[string]any
	bell bell
}

func (s *strictChat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var q struct {
		Messages []map[string]any `json:"messages"`
	}
	b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err := json.Unmarshal(b, &q); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	last := ""
	for _, m := range q.Messages {
		if m["role"] != "system" {
			last, _ = m["role"].(string)
		}
		if c, ok := m["content"].(string); ok && m["role"] == "user" && strings.TrimSpace(c) == "" {
			http.Error(w, `{"error":{"message":"messages: text content blocks must be non-empty"}}`, http.StatusBadRequest)
			return
		}
	}
	if last != "user" && last != "tool" {
		http.Error(w, `{"error":{"message":"No user query found in messages."}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, q.Messages)
	s.mu.Unlock()
	s.bell.ring()
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello there.\"}}]}\n\n")
	fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// contexts are the client_context messages of the requests so far, each
// with the user message after it.
func (s *strictChat) contexts() [][2]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out [][2]string
	for _, msgs := range s.reqs {
		for i := len(msgs) - 2; i >= 0; i-- {
			c, _ := msgs[i]["content"].(string)
			if msgs[i]["role"] == "system" && strings.HasPrefix(c, "client_context:") {
				u, _ := msgs[i+1]["content"].(string)
				out = append(out, [2]string{c, u})
				break
			}
		}
	}
	return out
}

// The real core on a Chat Completions server as strict as real ones, with
// the proactive clock compressed: a typing burst holds the greeting back;
// the greeting's request and then an idle check-in's carry their trigger
// lines and end on the user message "(no message)", and neither is refused.
func TestProactiveTurnsOnChatCompletions(t *testing.T) {
	t.Parallel()
	srv := &strictChat{}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	dir := t.TempDir()
	proactiveSettings(t, dir, func(s *settings.Settings) {
		s.Presets[0].ChatAPI, s.Presets[0].ChatBaseURL, s.Presets[0].Key = "chat_completions", hs.URL+"/v1", "sk-test"
	})
	logs := &recorder{}
	pres := &fakePresence{typing: true}
	startCore(t, Options{ConfigDir: dir, Logger: applog.New(logs, slog.LevelInfo), Presence: pres, ProactiveScale: proactiveScale})
	logWith(t, logs, "proactive_skipped", map[string]string{"reason": "typing", "source": "greeting"})
	if n := len(srv.contexts()); n != 0 {
		t.Fatalf("%d requests while typing", n)
	}
	pres.setTyping(false)
	checkin := func() int {
		for i, c := range srv.contexts() {
			if strings.Contains(c[0], "\ntrigger: proactive \"check-in\" (user idle ") {
				return i
			}
		}
		return -1
	}
	srv.bell.await(t, "the greeting and the check-in", func() bool { return checkin() > 0 })
	got := srv.contexts()
	if !strings.Contains(got[0][0], "\ntrigger: proactive \"good ") || got[0][1] != chatcompletions.NoMessage {
		t.Fatalf("greeting request: %q", got[0])
	}
	if c := got[checkin()]; c[1] != chatcompletions.NoMessage {
		t.Fatalf("check-in request: %q", c)
	}
	for _, l := range logs.lines() {
		if l["event"] == "turn_failed" || strings.Contains(fmt.Sprint(l["err"]), "400") {
			t.Fatalf("a refused turn: %v", l)
		}
	}
}

// Her pet page gets the quiet switches (the companion topic) on connect,
// and a quiet from her menu is saved and published back.
func TestPetPageGetsAndSetsTheQuietCompanion(t *testing.T) {
	st := startCore(t, Options{})
	p := st.c.Settings().Get().Presets[0]
	conn := st.dial(t, view.RolePet, p.ID)
	page := readPage(conn)
	page.wait(t, "the companion topic", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypeCompanion] != nil && l[view.TypeCompanion]["quiet"] == false
	})
	send(t, conn, map[string]any{"type": view.TypeQuiet, "scope": view.QuietAll, "quiet": true})
	page.wait(t, "global_quiet", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypeCompanion]["global_quiet"] == true
	})
	if !st.c.Settings().Get().Proactive.Quiet {
		t.Fatal("not saved")
	}
}
