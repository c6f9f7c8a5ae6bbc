// Package wiretest holds the test support the request transports share:
// a recorder of what a transport hands its handler, a hand-written SSE
// backend, an in-memory store and a client tool.
package wiretest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
)

// rec records what a transport hands its handler, as lines.
type Rec struct {
	mu    sync.Mutex
	lines []string
	ends  chan string
	evs   []transport.Event
	// State are the state changes, in order.
	State []transport.StateChange
}

func NewRec() *Rec { return &Rec{ends: make(chan string, 16)} }

func (r *Rec) add(l string) { r.mu.Lock(); r.lines = append(r.lines, l); r.mu.Unlock() }

func (r *Rec) Handler() transport.Handler {
	return transport.HandlerFuncs{
		Event: func(e transport.Event) {
			r.mu.Lock()
			r.evs = append(r.evs, e)
			r.mu.Unlock()
			switch e := e.(type) {
			case transport.Speech:
				for _, s := range e.Segments {
					for _, c := range s.Cues {
						r.add("cue " + CueText(c))
					}
					r.add("say " + s.Speech)
				}
			case transport.Render:
				for _, s := range e.Segments {
					for _, c := range s.Cues {
						r.add("cue " + CueText(c))
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
		State: func(c transport.StateChange) { r.mu.Lock(); r.State = append(r.State, c); r.mu.Unlock() },
		TurnWait: func(w transport.TurnWaitEnded) {
			r.add(fmt.Sprintf("wait %v rendered=%v", w.Reason == transport.WaitPassed, w.Rendered))
		},
		ToolCall: func(c transport.ToolCall) { r.add("call " + c.Name + " " + string(c.Arguments)) },
		ToolResult: func(res transport.ToolResult) {
			r.add(fmt.Sprintf("result %s images=%d", res.Result, len(res.Images)))
		},
	}
}

func (r *Rec) Got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...)
}

// waitEnd waits for the turn's TurnEnd (the guard only fails a hung test).
func (r *Rec) WaitEnd(t *testing.T, id string) {
	t.Helper()
	for {
		select {
		case got := <-r.ends:
			if got == id {
				return
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no turn_end for %s; got %q", id, r.Got())
		}
	}
}

func CueText(c transport.Cue) string {
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
// request (from 0), its body readable again. It records bodies and headers.
type Backend struct {
	Mu      sync.Mutex
	Bodies  []map[string]any
	headers []http.Header
	Reply   func(n int, w http.ResponseWriter, r *http.Request)
}

func (b *Backend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(raw))
	var m map[string]any
	json.Unmarshal(raw, &m)
	b.Mu.Lock()
	n := len(b.Bodies)
	b.Bodies = append(b.Bodies, m)
	b.headers = append(b.headers, r.Header.Clone())
	b.Mu.Unlock()
	b.Reply(n, w, r)
}

func (b *Backend) Body(t *testing.T, n int) map[string]any {
	t.Helper()
	b.Mu.Lock()
	defer b.Mu.Unlock()
	if n >= len(b.Bodies) {
		t.Fatalf("request %d not made (%d)", n, len(b.Bodies))
	}
	return b.Bodies[n]
}

func (b *Backend) Header(n int) http.Header {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	return b.headers[n]
}

// sse writes data events and flushes.
func SSE(w http.ResponseWriter, data ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, d := range data {
		fmt.Fprintf(w, "data: %s\n\n", d)
	}
	w.(http.Flusher).Flush()
}

func Content(s string) string {
	b, _ := json.Marshal(s)
	return `{"choices":[{"index":0,"delta":{"content":` + string(b) + `}}]}`
}

func Reasoning(s string) string {
	b, _ := json.Marshal(s)
	return `{"choices":[{"index":0,"delta":{"reasoning_content":` + string(b) + `}}]}`
}

func Finish(reason string) string {
	return `{"choices":[{"index":0,"delta":{},"finish_reason":"` + reason + `"}]}`
}

const Usage = `{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`

// memStore is an in-memory Store.
type MemStore struct {
	mu sync.Mutex
	b  []byte
}

func (m *MemStore) Load() ([]byte, error) { m.mu.Lock(); defer m.mu.Unlock(); return m.b, nil }
func (m *MemStore) Save(b []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.b = append([]byte(nil), b...)
	return nil
}

// lookTool is a client tool answering "ok: body" with the arguments seen.
func LookTool(images ...string) transport.Tool {
	return transport.ToolFunc{Name: "look", Parameters: json.RawMessage(`{"type":"object"}`),
		RunFunc: func(_ context.Context, c transport.ToolCall) (string, []string, error) {
			return "body: standing", images, nil
		}}
}

func EqLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// States are the state changes so far.
func (r *Rec) States() []transport.StateChange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]transport.StateChange(nil), r.State...)
}

// Requests is how many requests the backend got.
func (b *Backend) Requests() int {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	return len(b.Bodies)
}
