package push_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"
)

const (
	testKey    = "sekrit-key-value"
	testChatID = "yui-3f9a2c1d"
)

// ---- log capture ----

type recorder struct {
	order   []string
	mu      sync.Mutex
	frames  []push.Frame
	states  []push.StateChange
	waits   []push.TurnWaitEnded
	calls   []push.ToolCall
	results []push.ToolResult
}

func (r *recorder) HandleToolCall(c transport.ToolCall) {
	r.mu.Lock()
	r.calls = append(r.calls, push.ToolCall(c))
	r.mu.Unlock()
}

func (r *recorder) HandleToolResult(res transport.ToolResult) {
	r.mu.Lock()
	r.results = append(r.results, push.ToolResult(res))
	r.mu.Unlock()
}

// Observed returns the tool calls and results the Handler heard.
func (r *recorder) Observed() ([]push.ToolCall, []push.ToolResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]push.ToolCall(nil), r.calls...), append([]push.ToolResult(nil), r.results...)
}

// HandleEvent keeps each event as the frame it came from.
func (r *recorder) HandleEvent(e transport.Event) {
	r.mu.Lock()
	r.frames = append(r.frames, push.FrameOf(e))
	r.mu.Unlock()
}

func (r *recorder) HandleState(c push.StateChange) {
	r.mu.Lock()
	r.states = append(r.states, c)
	r.order = append(r.order, "state "+c.To.String())
	r.mu.Unlock()
}

func (r *recorder) HandleTurnWait(w push.TurnWaitEnded) {
	r.mu.Lock()
	r.waits = append(r.waits, w)
	r.order = append(r.order, "wait "+w.TurnID)
	r.mu.Unlock()
}

// Order lists state changes and turn waits as the Handler got them
// ("state reconnecting", "wait 1").
func (r *recorder) Order() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.order...)
}

func (r *recorder) Frames() []push.Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]push.Frame(nil), r.frames...)
}

func (r *recorder) States() []push.StateChange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]push.StateChange(nil), r.states...)
}

func (r *recorder) Waits() []push.TurnWaitEnded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]push.TurnWaitEnded(nil), r.waits...)
}

func (r *recorder) lastState() push.StateChange {
	s := r.States()
	if len(s) == 0 {
		return push.StateChange{}
	}
	return s[len(s)-1]
}

// ---- environment ----

type envOpts struct {
	handler   http.Handler // replaces the pushserver when set
	server    pushserver.Config
	tools     []push.Tool
	fitter    push.ImageFitter
	vocab     push.Vocabulary
	endpoint  string
	noStart   bool
	clientKey string
}

type env struct {
	t    *testing.T
	srv  *pushserver.Server
	c    *push.Client
	logs *logRecorder
	slog *logRecorder // server logs
	rec  *recorder

	mu       sync.Mutex
	endpoint string
	key      string
	dials    []time.Time
	open     int
	maxOpen  int
}

func (e *env) setEndpoint(s string) { e.mu.Lock(); e.endpoint = s; e.mu.Unlock() }
func (e *env) setKey(s string)      { e.mu.Lock(); e.key = s; e.mu.Unlock() }
func (e *env) Dials() []time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]time.Time(nil), e.dials...)
}

// newEnv builds a client wired to a pushserver (or opts.handler) over the
// in-memory transport. Call it inside a synctest bubble.
func newEnv(t *testing.T, opts envOpts) *env {
	t.Helper()
	e := &env{t: t, logs: &logRecorder{}, slog: &logRecorder{}, rec: &recorder{}, endpoint: "http://backend.test:8646", key: testKey}
	if opts.endpoint != "" {
		e.endpoint = opts.endpoint
	}
	if opts.clientKey != "" {
		e.key = opts.clientKey
	}
	h := opts.handler
	if h == nil {
		cfg := opts.server
		if cfg.Key == "" && cfg.CheckKey == nil {
			cfg.Key = testKey
		}
		cfg.Logger = slog.New(e.slog)
		e.srv = pushserver.New(cfg)
		h = e.srv
	}
	inner := pushserver.InMemoryClient(h).Transport
	counting := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		// Counts client-side connections from the dial to the client's
		// close of the connection.
		e.mu.Lock()
		e.dials = append(e.dials, time.Now())
		e.open++
		e.maxOpen = max(e.maxOpen, e.open)
		e.mu.Unlock()
		resp, err := inner.RoundTrip(r)
		if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
			e.mu.Lock()
			e.open--
			e.mu.Unlock()
			return resp, err
		}
		resp.Body = &countedBody{ReadWriteCloser: resp.Body.(io.ReadWriteCloser), done: func() { e.mu.Lock(); e.open--; e.mu.Unlock() }}
		return resp, nil
	})
	vocab := opts.vocab
	if vocab.EmotionIDs == nil {
		vocab = push.Vocabulary{EmotionIDs: []string{"neutral", "happy"}, MotionIDs: []string{"idle"}, EmotionTextMode: "free"}
	}
	c, err := push.New(push.Config{
		Endpoint:    func() string { e.mu.Lock(); defer e.mu.Unlock(); return e.endpoint },
		Key:         func() string { e.mu.Lock(); defer e.mu.Unlock(); return e.key },
		ChatID:      testChatID,
		Vocabulary:  vocab,
		Tools:       opts.tools,
		ImageFitter: opts.fitter,
		Handler:     e.rec,
		Logger:      slog.New(e.logs),
		HTTPClient:  &http.Client{Transport: counting},
	})
	if err != nil {
		t.Fatal(err)
	}
	e.c = c
	t.Cleanup(func() {
		c.Close()
		if e.srv != nil {
			e.srv.Close()
		}
	})
	if !opts.noStart {
		c.Start()
		synctest.Wait()
	}
	return e
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

type countedBody struct {
	io.ReadWriteCloser
	once sync.Once
	done func()
}

func (b *countedBody) Close() error {
	b.once.Do(b.done)
	return b.ReadWriteCloser.Close()
}

// wantState fails unless the client is in st.
func (e *env) wantState(st push.State) {
	e.t.Helper()
	synctest.Wait()
	if got := e.c.State(); got != st {
		e.t.Fatalf("state = %v, want %v\nlogs:\n%s", got, st, e.logs.Dump())
	}
}

func (e *env) close() {
	e.c.Close()
	if e.srv != nil {
		e.srv.Close()
	}
}

// ---- bare adversarial servers ----

// serverHooks records what the pushserver hooks receive.
type serverHooks struct {
	mu        sync.Mutex
	hellos    []push.Hello
	turns     []push.Turn
	stops     [][]string
	resets    int
	playbacks []push.Playback
	vocabs    []push.Vocabulary
	discs     []int
}

func (h *serverHooks) hooks() pushserver.Hooks {
	return pushserver.Hooks{
		Connected:    func(_ string, x push.Hello) { h.mu.Lock(); h.hellos = append(h.hellos, x); h.mu.Unlock() },
		Disconnected: func(_ string, code int) { h.mu.Lock(); h.discs = append(h.discs, code); h.mu.Unlock() },
		Turn:         func(_ string, x push.Turn) { h.mu.Lock(); h.turns = append(h.turns, x); h.mu.Unlock() },
		Stop:         func(_ string, ids []string) { h.mu.Lock(); h.stops = append(h.stops, ids); h.mu.Unlock() },
		Reset:        func(string) { h.mu.Lock(); h.resets++; h.mu.Unlock() },
		Playback:     func(_ string, p push.Playback) { h.mu.Lock(); h.playbacks = append(h.playbacks, p); h.mu.Unlock() },
		Vocabulary:   func(_ string, v push.Vocabulary) { h.mu.Lock(); h.vocabs = append(h.vocabs, v); h.mu.Unlock() },
	}
}

func (h *serverHooks) get() serverHooks {
	h.mu.Lock()
	defer h.mu.Unlock()
	return serverHooks{hellos: append([]push.Hello(nil), h.hellos...), turns: append([]push.Turn(nil), h.turns...),
		stops: append([][]string(nil), h.stops...), resets: h.resets, playbacks: append([]push.Playback(nil), h.playbacks...),
		vocabs: append([]push.Vocabulary(nil), h.vocabs...), discs: append([]int(nil), h.discs...)}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func bubble(t *testing.T, f func(t *testing.T)) { synctest.Test(t, f) }

func newLogger(l *logRecorder) *slog.Logger { return slog.New(l) }
