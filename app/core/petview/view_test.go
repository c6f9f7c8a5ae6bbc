package petview

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/core/route"
	"yui/app/cue"
	"yui/app/delegation"
	"yui/app/history"
	"yui/app/permission"
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

// character is her session and gate as the page reaches them.
type character struct {
	mu      sync.Mutex
	typed   []string
	images  [][][]byte
	refuse  error
	answers []permission.Choice
	resets  int
}

func (c *character) SendTyped(text string, images [][]byte) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refuse != nil {
		return "", c.refuse
	}
	c.typed = append(c.typed, text)
	c.images = append(c.images, images)
	return "1", nil
}
func (c *character) Stop()      {}
func (c *character) Reconnect() {}
func (c *character) Reset()     { c.mu.Lock(); c.resets++; c.mu.Unlock() }
func (c *character) AnswerPrompt(_ uint64, ch permission.Choice) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answers = append(c.answers, ch)
	if ch == permission.Always {
		return errors.New("disk full")
	}
	return nil
}
func (c *character) CaptureEachTurn() bool { return false }
func (c *character) Voiced() bool          { return true }

type env struct {
	char  *character
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
	tr, err := transcript.Open("", "p", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{pages: &viewtest.Pages{}, host: &host{preset: p, status: map[string]*view.PresetStatus{}, history: map[string][]view.DelegationItem{}},
		tr: tr, id: p.ID, char: &character{}}
	e.v = New(Config{Preset: p.ID, Pages: e.pages, Host: e.host, Transcript: tr, Character: e.char})
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
	// An empty conversation; the earlier one is there to scroll back to.
	if m := e.pages.Last(view.RoleMessage, e.id, view.TypeTranscript); len(m["entries"].([]any)) != 0 || m["more"] != true || m["conv"] != float64(2) {
		t.Fatalf("transcript after clear %v", m)
	}
}

// A message page that connects gets the newest page of the current
// conversation, not all of it, and whether there is more.
func TestTheTranscriptSentIsItsNewestPage(t *testing.T) {
	e := newEnv(t)
	for i := range 120 {
		e.tr.Add(transcript.Entry{TurnID: fmt.Sprint(i), Kind: transcript.KindUser, Text: fmt.Sprint("line ", i)})
	}
	e.v.SendTranscript()
	m := e.pages.Last(view.RoleMessage, e.id, view.TypeTranscript)
	es := m["entries"].([]any)
	if len(es) != history.PageRows || m["more"] != true || es[len(es)-1].(map[string]any)["text"] != "line 119" {
		t.Fatalf("transcript of %d entries, more %v", len(es), m["more"])
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

// A typed line goes with its images, all or nothing: too many, one that is
// no data URL, or one the session refuses refuse the line with a clear
// error line.
func TestTypedLineGoesWithItsImagesOrNotAtAll(t *testing.T) {
	e := newEnv(t)
	tb := route.New(slog.New(slog.DiscardHandler))
	Routes(tb, slog.New(slog.DiscardHandler), e.pages, func(id string) *View {
		if id == e.id {
			return e.v
		}
		return nil
	})
	send := func(v map[string]any) {
		b, _ := json.Marshal(v)
		tb.Serve(view.Peer{Role: view.RolePet, Preset: e.id}, view.Message{Type: v["type"].(string), Body: b})
	}
	errorLine := func() string { return e.pages.Last(view.RolePet, e.id, view.TypeErrorLine)["text"].(string) }
	png := "data:image/png;base64,iVBORw0KGgo="
	send(map[string]any{"type": "send_text", "text": "  hi  ", "images": []string{png}})
	if len(e.char.typed) != 1 || e.char.typed[0] != "hi" || len(e.char.images[0]) != 1 {
		t.Fatalf("sent %q %v", e.char.typed, e.char.images)
	}
	send(map[string]any{"type": "send_text", "text": "many", "images": slices.Repeat([]string{png}, MaxAttachments+1)})
	if !strings.Contains(errorLine(), "At most 6 images") {
		t.Fatalf("error line %q", errorLine())
	}
	send(map[string]any{"type": "send_text", "text": "bad", "images": []string{png, "http://example.com/x.png"}})
	if got := errorLine(); got != "Image 2 could not be attached: not a data: URL." {
		t.Fatalf("error line %q", got)
	}
	e.char.refuse = errors.New("session: image 1 is not an image")
	send(map[string]any{"type": "send_text", "text": "refused"})
	if got := errorLine(); got != "The message was not sent: image 1 is not an image." {
		t.Fatalf("error line %q", got)
	}
	if len(e.char.typed) != 1 {
		t.Fatalf("sent %q", e.char.typed)
	}
	// Nothing to send is nothing sent.
	e.char.refuse = nil
	send(map[string]any{"type": "send_text", "text": "   "})
	if len(e.char.typed) != 1 {
		t.Fatalf("sent %q", e.char.typed)
	}
	// A prompt's answer closes the prompt; a failed "Always" says so.
	send(map[string]any{"type": "permission_answer", "id": 3, "answer": "always"})
	if n := e.pages.Last(view.RolePet, e.id, view.TypeNotice); n["id"] != "permission_save" || !strings.Contains(n["text"].(string), "disk full") {
		t.Fatalf("notice %v", n)
	}
	if p := e.pages.Last(view.RolePet, e.id, view.TypePermission); p["id"].(float64) != 0 {
		t.Fatalf("prompt still shown: %v", p)
	}
	send(map[string]any{"type": "permission_answer", "id": 3, "answer": "maybe"})
	if len(e.char.answers) != 1 {
		t.Fatalf("answers %v", e.char.answers)
	}
	// New conversation: the session resets and the transcript empties.
	e.v.OnEvent(session.TurnSent{TurnID: "1", Text: "hello"})
	send(map[string]any{"type": "reset"})
	if e.char.resets != 1 || len(e.tr.Entries()) != 0 {
		t.Fatalf("resets %d, rows %v", e.char.resets, e.tr.Entries())
	}
}
