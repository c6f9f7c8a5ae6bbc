package petview

import (
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/cue"
	"yui/app/delegation"
	"yui/app/session"
	"yui/app/settings"
	"yui/app/transcript"
	"yui/app/view"
	"yui/app/view/viewtest"
)

// host is the core as a View sees it.
type host struct {
	mu      sync.Mutex
	preset  settings.Preset
	status  map[string]*view.PresetStatus
	history map[string][]view.DelegationItem
}

func (h *host) Preset(string) (settings.Preset, bool) { return h.preset, true }
func (h *host) Endpoint(string) string                { return h.preset.ChatBaseURL }
func (h *host) Available(api string) bool             { return api != "not_built" }
func (h *host) GlobalMuted() bool                     { return false }
func (h *host) SetStatus(id string, st *view.PresetStatus) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.status[id] = st
}
func (h *host) SetHistory(id string, items []view.DelegationItem) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.history[id] = items
}

type env struct {
	pages *viewtest.Pages
	host  *host
	tr    *transcript.Store
	v     *View
	id    string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	p := settings.NewPreset("Yui")
	p.ChatBaseURL = "http://127.0.0.1:9"
	tr, err := transcript.Open("", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{pages: &viewtest.Pages{}, host: &host{preset: p, status: map[string]*view.PresetStatus{}, history: map[string][]view.DelegationItem{}},
		tr: tr, id: p.ID}
	e.v = New(Config{Preset: p.ID, Pages: e.pages, Host: e.host, Transcript: tr})
	t.Cleanup(e.v.Close)
	e.v.PublishAll()
	return e
}

func (e *env) plates() []string {
	var out []string
	for _, m := range e.pages.Of(view.RolePet, e.id, view.TypePlate) {
		out = append(out, m["text"].(string))
	}
	return out
}

// The plate counts the reconnect delay down each second, with the
// reconnect action and the cause in plain words, and the settings list
// says so too.
func TestReconnectingPlateCountsDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		e.v.OnEvent(session.Socket{State: "reconnecting", DelayMS: 2000, Code: -1, Err: "refused", Cause: syscall.ECONNREFUSED})
		p := e.pages.Last(view.RolePet, e.id, view.TypePlate)
		if p["text"] != "reconnecting in 2 s" || p["action"] != "reconnect" || !strings.Contains(p["cause"].(string), "connection refused") {
			t.Fatalf("plate %v", p)
		}
		if st := e.host.status[e.id]; st == nil || st.State != "reconnecting" || st.Text != "reconnecting" {
			t.Fatalf("status %+v", st)
		}
		time.Sleep(time.Second + time.Millisecond)
		synctest.Wait()
		if got := e.pages.Last(view.RolePet, e.id, view.TypePlate)["text"]; got != "reconnecting in 1 s" {
			t.Fatalf("a second later the plate says %q", got)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if got := e.pages.Last(view.RolePet, e.id, view.TypePlate)["text"]; got != "reconnecting…" {
			t.Fatalf("at the retry the plate says %q", got)
		}
		e.v.OnEvent(session.Socket{State: "ready", Code: -1})
		if got := e.pages.Last(view.RolePet, e.id, view.TypePlate)["kind"]; got != "" {
			t.Fatalf("ready, the plate is %v", got)
		}
		// No countdown runs once ready.
		n := len(e.plates())
		time.Sleep(5 * time.Second)
		synctest.Wait()
		if len(e.plates()) != n {
			t.Fatalf("plates after ready: %v", e.plates()[n:])
		}
	})
}

func TestNotConfiguredAndMissingAPIPlates(t *testing.T) {
	e := newEnv(t)
	e.host.preset.ChatBaseURL = ""
	e.v.OnEvent(session.Socket{State: "disconnected", Code: -1})
	if got := e.pages.Last(view.RolePet, e.id, view.TypePlate)["text"]; got != "not configured" {
		t.Fatalf("plate %v", got)
	}
	e.host.preset.ChatAPI = "not_built"
	e.v.OnEvent(session.Socket{State: "disconnected", Code: -1})
	if got := e.pages.Last(view.RolePet, e.id, view.TypePlate)["text"]; got != "not_built is not in this version" {
		t.Fatalf("plate %v", got)
	}
	e.v.SetProblem(view.ProblemThreadDeleted)
	e.v.OnEvent(session.Socket{State: "failed", Code: -1})
	if p := e.pages.Last(view.RolePet, e.id, view.TypePlate); p["text"] != "thread deleted" || p["action"] != "reset" {
		t.Fatalf("plate %v", p)
	}
	if st := e.host.status[e.id]; st.Problem != view.ProblemThreadDeleted {
		t.Fatalf("status %+v", st)
	}
}

// One state: the composer's lock the page shows is what keeps her reply
// streaming in the transcript past the ease back to neutral; once the
// turn is over, the ease back marks it done and ends her last motion.
func TestOneStateForThePageAndTheTranscript(t *testing.T) {
	e := newEnv(t)
	neutral := session.Cue{Cue: cue.Cue{EmotionID: "neutral"}}
	e.v.OnEvent(session.TurnSent{TurnID: "1", Text: "hello"})
	e.v.OnEvent(session.Composer{Locked: true})
	e.v.OnEvent(session.Cue{TurnID: "1", Cue: cue.Cue{EmotionID: "happy", MotionID: "wave"}})
	e.v.OnEvent(session.SpeechStart{TurnID: "1", Text: "Hi there."})
	e.v.OnEvent(session.SpeechEnd{TurnID: "1", Text: "Hi there."})
	e.v.OnEvent(neutral) // idle between sentences while the turn runs
	rows := e.tr.Entries()
	if len(rows) != 2 || rows[0].Kind != transcript.KindUser || rows[1].Text != "Hi there." || rows[1].State != "streaming" {
		t.Fatalf("while locked: %+v", rows)
	}
	if c := e.pages.Last(view.RolePet, e.id, view.TypeCharacter); c["motion"] != "idle" || c["emotion"] != "neutral" {
		t.Fatalf("character %v", c)
	}
	e.v.OnEvent(session.Composer{Locked: false})
	e.v.OnEvent(neutral)
	if rows := e.tr.Entries(); rows[1].State != "done" {
		t.Fatalf("after the turn: %+v", rows)
	}
	var states []string
	for _, m := range e.pages.Of(view.RoleMessage, e.id, view.TypeTranscriptEntry) {
		states = append(states, m["kind"].(string)+":"+m["state"].(string))
	}
	if strings.Join(states, " ") != "user: reply:streaming reply:done" {
		t.Fatalf("rows sent %v", states)
	}
}

func TestToolErrorAndDelegationRowsAndTopics(t *testing.T) {
	e := newEnv(t)
	e.v.OnEvent(session.Pill{Tool: &session.ToolPill{TurnID: "1", ToolID: "read_file", State: "running"}})
	if p := e.pages.Last(view.RolePet, e.id, view.TypePill); p["tool"].(map[string]any)["label"] != "Read file" {
		t.Fatalf("pill %v", p)
	}
	e.v.OnEvent(session.Pill{Tool: &session.ToolPill{TurnID: "1", ToolID: "read_file", State: "done"}})
	e.v.OnEvent(session.ErrorLine{TurnID: "1", Text: "It broke.", Where: session.WherePill})
	e.v.OnEvent(session.FailureLine{TurnID: "1", Text: "It broke."}) // the same failure: one row
	e.v.OnEvent(session.Delegations{Items: []delegation.Item{{ID: "d", Title: "Count sheep", State: "running"}}})
	e.v.OnEvent(session.Delegations{Items: []delegation.Item{{ID: "d", Title: "Count sheep", State: "done", Summary: "42"}},
		History: []delegation.Item{{ID: "d", Title: "Count sheep", State: "done"}}})
	var rows []string
	for _, r := range e.tr.Entries() {
		rows = append(rows, r.Kind+":"+r.Text+":"+r.State)
	}
	if want := "tool:Read file:done error:It broke.:failed delegation:Count sheep — 42:done"; strings.Join(rows, " ") != want {
		t.Fatalf("rows %q, want %q", strings.Join(rows, " "), want)
	}
	if p := e.pages.Last(view.RolePet, e.id, view.TypePill); p["error"] != "It broke." {
		t.Fatalf("pill %v", p)
	}
	if h := e.host.history[e.id]; len(h) != 1 || h[0].ID != "d" {
		t.Fatalf("history %+v", h)
	}
	// A new turn clears the pill's error.
	e.v.OnEvent(session.TurnSent{TurnID: "2"})
	if p := e.pages.Last(view.RolePet, e.id, view.TypePill); p["error"] != "" {
		t.Fatalf("pill after a new turn %v", p)
	}
	e.v.ClearTranscript()
	if m := e.pages.Last(view.RoleMessage, e.id, view.TypeTranscript); len(m["entries"].([]any)) != 0 {
		t.Fatalf("transcript after clear %v", m)
	}
}

func TestReasoningDeltasGoLiveAndTheWholeStaysSticky(t *testing.T) {
	e := newEnv(t)
	e.v.OnEvent(session.Reasoning{TurnID: "1", Text: "Hmm", Streaming: true})
	e.v.OnEvent(session.Reasoning{TurnID: "1", Text: "Hmm, yes", Delta: ", yes", Append: true, Streaming: true})
	if live := e.pages.Last(view.RolePet, e.id, view.TypeReasoning); live["text"] != ", yes" || live["append"] != true {
		t.Fatalf("live %v", live)
	}
	if whole := e.pages.Sticky(view.RolePet, e.id, view.TypeReasoning); whole["text"] != "Hmm, yes" {
		t.Fatalf("sticky %v", whole)
	}
}

func TestToolLabel(t *testing.T) {
	for id, want := range map[string]string{"read_file": "Read file", "web.search": "Web search", "": "Tool", "__": "Tool"} {
		if got := toolLabel(id); got != want {
			t.Errorf("%q: %q, want %q", id, got, want)
		}
	}
}
