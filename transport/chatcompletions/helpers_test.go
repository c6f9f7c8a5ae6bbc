package chatcompletions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/internal/request"
)

// rec records what a transport hands its handler, as lines.
type rec struct {
	mu    sync.Mutex
	lines []string
	ends  chan string
	evs   []transport.Event
	state []transport.StateChange
}

func newRec() *rec { return &rec{ends: make(chan string, 16)} }

func (r *rec) add(l string) { r.mu.Lock(); r.lines = append(r.lines, l); r.mu.Unlock() }

func (r *rec) handler() transport.Handler {
	return transport.HandlerFuncs{
		Event: func(e transport.Event) {
			r.mu.Lock()
			r.evs = append(r.evs, e)
			r.mu.Unlock()
			switch e := e.(type) {
			case transport.Speech:
				for _, s := range e.Segments {
					for _, c := range s.Cues {
						r.add("cue " + cueText(c))
					}
					r.add("say " + s.Speech)
				}
			case transport.Render:
				for _, s := range e.Segments {
					for _, c := range s.Cues {
						r.add("cue " + cueText(c))
					}
					if s.Speech != "" {
						r.add("say " + s.Speech)
					}
				}
				if e.Reasoning != "" {
					r.add("reasoning " + e.Reasoning)
				}
			case transport.ToolStatus:
				r.add("tool " + e.ToolID + " " + e.State)
			case transport.TurnError:
				r.add("error " + e.Message)
			case transport.TurnEnd:
				if e.Usage != nil {
					r.add(fmt.Sprintf("usage %g", e.Usage.TotalTokens))
				}
				r.add("end")
				r.ends <- e.TurnID
			}
		},
		State:    func(c transport.StateChange) { r.mu.Lock(); r.state = append(r.state, c); r.mu.Unlock() },
		TurnWait: func(w transport.TurnWaitEnded) { r.add(fmt.Sprintf("wait %v rendered=%v", w.Reason == transport.WaitPassed, w.Rendered)) },
		ToolCall: func(c transport.ToolCall) { r.add("call " + c.Name + " " + string(c.Arguments)) },
		ToolResult: func(res transport.ToolResult) {
			r.add(fmt.Sprintf("result %s images=%d", res.Result, len(res.Images)))
		},
	}
}

func (r *rec) got() []string { r.mu.Lock(); defer r.mu.Unlock(); return append([]string(nil), r.lines...) }

// waitEnd waits for the turn's TurnEnd (the guard only fails a hung test).
func (r *rec) waitEnd(t *testing.T, id string) {
	t.Helper()
	for {
		select {
		case got := <-r.ends:
			if got == id {
				return
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no turn_end for %s; got %q", id, r.got())
		}
	}
}

func cueText(c transport.Cue) string {
	var p []string
	if c.EmotionID != "" {
		p = append(p, "e="+c.EmotionID)
	}
	if c.MotionID != "" {
		p = append(p, "m="+c.MotionID)
	}
	return strings.Join(p, ",")
}

// backend is a hand-written SSE server: reply(n, w, r) answers the nth
// request (from 0). It records bodies and headers.
type backend struct {
	mu      sync.Mutex
	bodies  []map[string]any
	headers []http.Header
	reply   func(n int, w http.ResponseWriter, r *http.Request)
}

func (b *backend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var m map[string]any
	json.Unmarshal(raw, &m)
	b.mu.Lock()
	n := len(b.bodies)
	b.bodies = append(b.bodies, m)
	b.headers = append(b.headers, r.Header.Clone())
	b.mu.Unlock()
	b.reply(n, w, r)
}

func (b *backend) body(t *testing.T, n int) map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if n >= len(b.bodies) {
		t.Fatalf("request %d not made (%d)", n, len(b.bodies))
	}
	return b.bodies[n]
}

func (b *backend) header(n int) http.Header {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.headers[n]
}

// sse writes data events and flushes.
func sse(w http.ResponseWriter, data ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, d := range data {
		fmt.Fprintf(w, "data: %s\n\n", d)
	}
	w.(http.Flusher).Flush()
}

func content(s string) string {
	b, _ := json.Marshal(s)
	return `{"choices":[{"index":0,"delta":{"content":` + string(b) + `}}]}`
}

func reasoning(s string) string {
	b, _ := json.Marshal(s)
	return `{"choices":[{"index":0,"delta":{"reasoning_content":` + string(b) + `}}]}`
}

func finish(reason string) string {
	return `{"choices":[{"index":0,"delta":{},"finish_reason":"` + reason + `"}]}`
}

const usage = `{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`

// memStore is an in-memory Store.
type memStore struct {
	mu sync.Mutex
	b  []byte
}

func (m *memStore) Load() ([]byte, error) { m.mu.Lock(); defer m.mu.Unlock(); return m.b, nil }
func (m *memStore) Save(b []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.b = append([]byte(nil), b...)
	return nil
}

// lookTool is a client tool answering "ok: body" with the arguments seen.
func lookTool(images ...string) transport.Tool {
	return transport.ToolFunc{Name: "look", Parameters: json.RawMessage(`{"type":"object"}`),
		RunFunc: func(_ context.Context, c transport.ToolCall) (string, []string, error) {
			return "body: standing", images, nil
		}}
}

type env struct {
	t   *testing.T
	srv *httptest.Server
	be  *backend
	tr  *request.Engine
	rec *rec
}

func newEnv(t *testing.T, reply func(n int, w http.ResponseWriter, r *http.Request), cfg chatcompletions.Config) *env {
	t.Helper()
	be := &backend{reply: reply}
	srv := httptest.NewServer(be)
	t.Cleanup(srv.Close)
	if cfg.Endpoint == nil {
		cfg.Endpoint = func() string { return srv.URL + "/v1" }
	}
	if cfg.Key == nil {
		cfg.Key = func() string { return "sk-test" }
	}
	if cfg.Params == nil {
		cfg.Params = func() request.Params {
			return request.Params{Model: "m-1", ReasoningEffort: "low", Card: "You are Yui.", ContextWindow: 8192}
		}
	}
	cfg.Character = "Yui"
	cfg.Vocabulary = transport.Vocabulary{EmotionIDs: []string{"neutral", "happy"}, MotionIDs: []string{"dance"}}
	tr, err := chatcompletions.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := newRec()
	tr.Start(r.handler())
	t.Cleanup(func() { tr.Close() })
	return &env{t: t, srv: srv, be: be, tr: tr, rec: r}
}

func (e *env) turn(id, text string, images ...string) {
	e.t.Helper()
	err := e.tr.SendTurn(context.Background(), transport.Turn{TurnID: id, Text: text, Images: images,
		ClientContext: "<client_context>\ntime: now\ntrigger: user message\n</client_context>"})
	if err != nil {
		e.t.Fatal(err)
	}
}

func eqLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
