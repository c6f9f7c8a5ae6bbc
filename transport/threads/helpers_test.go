package threads_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/threads"
	"yui/transport/threads/threadserver"
)

// guard bounds a wait in a test that runs in real time; every wait ends
// when what it awaits happened, so the guard only stops a hung test.
const guard = 30 * time.Second

// rec records what a transport tells its handler, as lines.
type rec struct {
	mu     sync.Mutex
	cond   *sync.Cond
	lines  []string
	states []transport.StateChange
	status []threads.Status
}

func newRec() *rec {
	r := &rec{}
	r.cond = sync.NewCond(&r.mu)
	return r
}

func (r *rec) add(l string) {
	r.mu.Lock()
	r.lines = append(r.lines, l)
	r.cond.Broadcast()
	r.mu.Unlock()
}

func (r *rec) handler() transport.Handler {
	return transport.HandlerFuncs{
		Event: func(e transport.Event) {
			switch e := e.(type) {
			case transport.Speech:
				for _, s := range e.Segments {
					r.add(e.TurnID + " say " + s.Speech)
				}
			case transport.Render:
				for _, s := range e.Segments {
					r.add(e.TurnID + " render " + s.Speech)
				}
				if e.Reasoning != "" {
					r.add(e.TurnID + " reasoning-all " + e.Reasoning)
				}
				r.add(e.TurnID + " render-end")
			case transport.Reasoning:
				r.add(e.TurnID + " reasoning " + e.Delta)
			case transport.ToolStatus:
				r.add(e.TurnID + " tool " + e.ToolID + " " + e.State)
			case transport.TurnError:
				r.add(e.TurnID + " error " + e.Message)
			case transport.TurnEnd:
				r.add(e.TurnID + " end")
			}
		},
		State: func(c transport.StateChange) {
			r.mu.Lock()
			r.states = append(r.states, c)
			r.cond.Broadcast()
			r.mu.Unlock()
			extra := ""
			switch {
			case c.Unauthorized():
				extra = " unauthorized"
			case c.Err != nil && strings.Contains(c.Err.Error(), "deleted"):
				extra = " deleted"
			}
			r.add("state " + c.To.String() + extra)
		},
		TurnWait: func(w transport.TurnWaitEnded) {
			reason := "passed"
			if w.Reason == transport.SocketLeftReady {
				reason = "socket"
			}
			r.add(fmt.Sprintf("%s wait %s rendered=%v", w.TurnID, reason, w.Rendered))
		},
	}
}

func (r *rec) onStatus(s threads.Status) {
	r.mu.Lock()
	r.status = append(r.status, s)
	r.mu.Unlock()
	r.add("status " + s.Problem)
}

// waitLine waits until a line equal to want was recorded.
func (r *rec) waitLine(t *testing.T, want string) {
	t.Helper()
	r.waitFor(t, want, func() bool { return slices.Contains(r.lines, want) })
}

// waitCount waits until want was recorded n times.
func (r *rec) waitCount(t *testing.T, want string, n int) {
	t.Helper()
	r.waitFor(t, fmt.Sprintf("%d × %s", n, want), func() bool {
		c := 0
		for _, l := range r.lines {
			if l == want {
				c++
			}
		}
		return c >= n
	})
}

func (r *rec) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	stop := time.AfterFunc(guard, func() {
		r.mu.Lock()
		r.cond.Broadcast()
		r.mu.Unlock()
	})
	defer stop.Stop()
	start := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	for !cond() {
		if time.Since(start) >= guard {
			t.Fatalf("waited %s for %s; have:\n%s", guard, what, strings.Join(r.lines, "\n"))
		}
		r.cond.Wait()
	}
}

// turn is the lines of one turn id (the prefix dropped).
func (r *rec) turn(id string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, l := range r.lines {
		if rest, ok := strings.CutPrefix(l, id+" "); ok {
			out = append(out, rest)
		}
	}
	return out
}

func (r *rec) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.lines)
}

func (r *rec) has(l string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Contains(r.lines, l)
}

func eq(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}

// logBuf is a JSON log the test can read.
type logBuf struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// events are the log's event names (msg) with their fields.
func (l *logBuf) events() []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(l.buf.String(), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

func (l *logBuf) find(msg string) []map[string]any {
	var out []map[string]any
	for _, e := range l.events() {
		if e["msg"] == msg {
			out = append(out, e)
		}
	}
	return out
}

func (l *logBuf) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

const testKey = "agtbldr_0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab"

// env is a transport against a threadserver on loopback.
type env struct {
	t    *testing.T
	srv  *threadserver.Server
	hs   *httptest.Server
	tr   *threads.Transport
	rec  *rec
	log  *logBuf
	mu   sync.Mutex
	save []string
}

type envOpts struct {
	behaviour threadserver.Behaviour
	agent     threadserver.Agent
	thread    string // "" : the transport makes one
	key       string // "" : testKey
	noStart   bool
	hc        *http.Client
}

func newEnv(t *testing.T, o envOpts) *env {
	t.Helper()
	srv := threadserver.New(threadserver.Config{Key: testKey, Agent: o.agent, Behaviour: o.behaviour})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		srv.Close()
		hs.Close()
	})
	e := &env{t: t, srv: srv, hs: hs, rec: newRec(), log: &logBuf{}}
	key := o.key
	if key == "" {
		key = testKey
	}
	tr, err := threads.New(threads.Config{
		Endpoint:   func() string { return hs.URL },
		Key:        func() string { return key },
		Agent:      func() string { return "yui-test" },
		Thread:     o.thread,
		SaveThread: func(id string) error { e.mu.Lock(); e.save = append(e.save, id); e.mu.Unlock(); return nil },
		OnStatus:   e.rec.onStatus,
		HTTPClient: o.hc,
		Logger:     slog.New(slog.NewJSONHandler(e.log, nil)),
		Jitter:     func() float64 { return 0.5 },
	})
	if err != nil {
		t.Fatal(err)
	}
	e.tr = tr
	t.Cleanup(func() { tr.Close() })
	if !o.noStart {
		tr.Start(e.rec.handler())
		e.rec.waitLine(t, "state ready")
	}
	return e
}

func (e *env) send(id, text string, images ...string) {
	e.t.Helper()
	err := e.tr.SendTurn(context.Background(), transport.Turn{TurnID: id, Text: text, Images: images,
		ClientContext: "<client_context>\ntime: now\ntrigger: user message\n</client_context>"})
	if err != nil {
		e.t.Fatalf("send %s: %v", id, err)
	}
}

// waitServer waits until cond holds on the server.
func (e *env) waitServer(what string, cond func() bool) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	if err := e.srv.Wait(ctx, cond); err != nil {
		e.t.Fatalf("waited for %s: %v", what, err)
	}
}

func (e *env) thread() string { return e.tr.Thread() }

func (e *env) stats() threadserver.Stats { return e.srv.Stats(e.thread()) }

// behaviours are the two generations of runtime, and two mixes of their
// traits, so each one (thread_status, full records, "data": null, reason
// codes, the refusal's body) is tested on and off independently of the
// others: a runtime may move to the documented stream one trait at a time.
func behaviours() map[string]threadserver.Behaviour {
	return map[string]threadserver.Behaviour{
		"spec":   threadserver.Spec(),
		"legacy": threadserver.Legacy(),
		// thread_status and reason codes, but partial records, events
		// without data and the worker's text refusals.
		"status-partial": {ThreadStatus: true, StopReasonCodes: true, Refusal: threadserver.RefuseText},
		// Full records and "data": null, but no thread_status and prose
		// reasons.
		"nostatus-full": {FullRecords: true, EventDataNull: true, Refusal: threadserver.RefuseObject},
	}
}
