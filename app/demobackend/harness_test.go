package demobackend_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/demobackend"
	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"
)

const testKey = "demo-key"

// recorder keeps every frame the client handed its Handler as one
// transcript line with the bubble time since the test started.
type recorder struct {
	mu    sync.Mutex
	start time.Time
	lines []string
	ready int
}

func (r *recorder) frame(f push.Frame) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, fmt.Sprintf("%6d %s", time.Since(r.start).Milliseconds(), describe(f)))
}

func (r *recorder) state(c push.StateChange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c.To == push.StateReady {
		r.ready++
	}
}

// describe renders a frame as one deterministic transcript line.
func describe(f push.Frame) string {
	switch f := f.(type) {
	case push.Render:
		s := fmt.Sprintf("render %s %s", f.TurnID, segs(f.Segments))
		if f.Reasoning != "" {
			s += fmt.Sprintf(" reasoning=%q", f.Reasoning)
		}
		return s
	case push.Speech:
		return fmt.Sprintf("speech %s %s", f.TurnID, segs(f.Segments))
	case push.TurnEnd:
		if f.Usage == nil {
			return "turn_end " + f.TurnID
		}
		return fmt.Sprintf("turn_end %s usage=%v/%v/%v", f.TurnID, f.Usage.InputTokens, f.Usage.OutputTokens, f.Usage.TotalTokens)
	case push.ErrorFrame:
		return fmt.Sprintf("error %s %q", f.TurnID, f.Message)
	case push.ToolStatus:
		return fmt.Sprintf("tool_status %s %s %s", f.TurnID, f.State, f.ToolID)
	case push.Reasoning:
		return fmt.Sprintf("reasoning %s %q", f.TurnID, f.Delta)
	case push.Delegations:
		items := make([]string, len(f.Items))
		for i, d := range f.Items {
			items[i] = fmt.Sprintf("%s %s %q started=%d", d.ID, d.State, d.Title, d.StartedAt)
			if d.State == "done" {
				items[i] += fmt.Sprintf(" ended=%d %s %q", d.EndedAt, d.Status, d.Summary)
			}
		}
		return "delegations [" + strings.Join(items, "; ") + "]"
	}
	return fmt.Sprintf("%T", f)
}

func segs(ss []push.Segment) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		var cues []string
		for _, c := range s.Cues {
			cues = append(cues, strings.TrimRight(strings.Join([]string{c.EmotionID, c.MotionID, c.EmotionText}, "/"), "/"))
		}
		parts[i] = fmt.Sprintf("{%s}%q", strings.Join(cues, ","), s.Speech)
	}
	return strings.Join(parts, " ")
}

// env is one backend and one real push client, inside a synctest bubble.
type env struct {
	t   *testing.T
	b   *demobackend.Backend
	c   *push.Client
	rec *recorder
	o   envOpt
}

type envOpt struct {
	cfg   demobackend.Config
	vocab push.Vocabulary
	tools []push.Tool
}

// newEnv starts a backend and a connected client; call inside synctest.Test.
func newEnv(t *testing.T, o envOpt) *env {
	t.Helper()
	if o.cfg.Key == "" {
		o.cfg.Key = testKey
	}
	e := &env{t: t, b: demobackend.New(o.cfg), rec: &recorder{start: time.Now()}, o: o}
	e.connect()
	return e
}

// connect starts a new push client for the chat and waits for ready.
func (e *env) connect() {
	t, o := e.t, e.o
	t.Helper()
	c, err := push.New(push.Config{
		Endpoint:   func() string { return "http://demo.test" },
		Key:        func() string { return testKey },
		ChatID:     "yui-0000test",
		Vocabulary: o.vocab,
		Tools:      o.tools,
		Handler:    transport.HandlerFuncs{Event: func(ev transport.Event) { e.rec.frame(push.FrameOf(ev)) }, State: e.rec.state},
		HTTPClient: pushserver.InMemoryClient(e.b),
	})
	if err != nil {
		t.Fatal(err)
	}
	e.c = c
	c.Start()
	synctest.Wait()
	if c.State() != push.StateReady {
		t.Fatalf("client state %v, want ready", c.State())
	}
}

// disconnect closes the client; the backend holds renders meanwhile.
func (e *env) disconnect() {
	e.t.Helper()
	if err := e.c.Close(); err != nil {
		e.t.Fatal(err)
	}
	synctest.Wait()
}

// close ends the client and the backend; the bubble then checks that no
// goroutine or timer is left.
func (e *env) close() {
	e.t.Helper()
	if err := e.c.Close(); err != nil {
		e.t.Errorf("client close: %v", err)
	}
	if err := e.b.Close(); err != nil {
		e.t.Errorf("backend close: %v", err)
	}
}

func (e *env) turn(id, text string) {
	e.t.Helper()
	e.turnWith(id, text, "trigger: user message")
}

// turnWith sends a turn whose client_context holds the given trigger line.
func (e *env) turnWith(id, text, trigger string) {
	e.t.Helper()
	if err := e.c.SendTurn(context.Background(), push.Turn{TurnID: id, Text: text, ClientContext: "<client_context>\n" + trigger + "\n</client_context>"}); err != nil {
		e.t.Fatalf("send turn %s: %v", id, err)
	}
	synctest.Wait()
}

func (e *env) stop(ids ...string) {
	e.t.Helper()
	if err := e.c.SendStop(context.Background(), ids); err != nil {
		e.t.Fatalf("send stop: %v", err)
	}
	synctest.Wait()
}

// after advances the bubble clock by d and lets everything settle.
func (e *env) after(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// take returns the transcript lines recorded since the last take.
func (e *env) take() []string {
	synctest.Wait()
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	out := e.rec.lines
	e.rec.lines = nil
	return out
}

// expect compares the transcript since the last take with want.
func (e *env) expect(want ...string) {
	e.t.Helper()
	got := e.take()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		e.t.Fatalf("transcript:\n%s\nwant:\n%s", quoteLines(got), quoteLines(want))
	}
}

func quoteLines(ls []string) string {
	var b strings.Builder
	for _, l := range ls {
		fmt.Fprintf(&b, "\t\t%q,\n", l)
	}
	return b.String()
}

// lookTool is a client look tool answering from a function.
func lookTool(answer func(at string) (string, []string)) push.Tool {
	return transport.ToolFunc{
		Name:       "look",
		Parameters: json.RawMessage(`{"type":"object","properties":{"at":{"type":"string","enum":["body","perch_targets","screen"]}},"required":["at"],"additionalProperties":false}`),
		RunFunc: func(ctx context.Context, call transport.ToolCall) (string, []string, error) {
			var args struct{ At string }
			_ = json.Unmarshal(call.Arguments, &args)
			res, imgs := answer(args.At)
			return res, imgs, nil
		},
	}
}

// run runs body in a bubble with a fresh env.
func run(t *testing.T, o envOpt, body func(e *env)) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, o)
		defer e.close()
		body(e)
	})
}

func cfgScale(s float64) demobackend.Config { return demobackend.Config{TimeScale: s} }

func equalLines(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

func pushClient(b *demobackend.Backend) *http.Client { return pushserver.InMemoryClient(b) }

// serveDemo serves a demo backend (key "demo-k", scripts 1000× faster) on
// a loopback port until the test ends. It returns its base URL and the
// test's context.
func serveDemo(t *testing.T) (string, context.Context) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := demobackend.New(demobackend.Config{Key: "demo-k", TimeScale: 0.001})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String(), ctx
}
