package threads

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"yui/transport"
	"yui/transport/httpapi"
	"yui/transport/internal/callqueue"
)

// Name is the wire's name (preset chat_api, render source, logs).
const Name = "standard_agents"

// The wire's timings (the official client's habits, threads-api.md).
const (
	// ReconnectFirst is the first reconnect delay; it doubles per attempt
	// that fails before the socket opens, up to ReconnectCap, and an open
	// brings it back.
	ReconnectFirst = 1 * time.Second
	ReconnectCap   = 30 * time.Second
	// ReconnectJitter spreads each delay by up to ±25 %.
	ReconnectJitter = 0.25
	// KeyCheckAfter is how many closes in a row before an open make the
	// client check the key (GET /api/auth/me) and stop if it is refused.
	KeyCheckAfter = 3
	// HeartbeatIdle is how long the socket may be silent before the client
	// sends stream_ping; a socket still silent HeartbeatIdle after its
	// ping is dead and is dropped.
	HeartbeatIdle = 30 * time.Second
	// TurnWait is a turn's wait: with no frame of the thread for this long
	// while the turn is outstanding, the session hears the wait passed.
	TurnWait = 240 * time.Second
	// DialWait bounds the opening handshake, HTTPWait one HTTP call.
	DialWait = 15 * time.Second
	HTTPWait = 20 * time.Second
	// maxFrame bounds one inbound text message; a larger one is read to
	// its end and dropped.
	maxFrame = 4 << 20
	// maxJobs bounds the turns and stops waiting to go out.
	maxJobs = 64
)

// Problems a Status names.
const (
	// ProblemDeleted: the thread was deleted; the client does not
	// reconnect to it (a reset starts a new one).
	ProblemDeleted = "thread_deleted"
	// ProblemAgent: the agent to make a thread for is not on the runtime.
	ProblemAgent = "agent_unknown"
)

// Status is what the client tells its owner about its thread: which one,
// and what keeps it from it ("" when nothing).
type Status struct {
	Thread  string
	Problem string
}

// DeletedLine is the error line of a turn posted to a thread the runtime
// no longer has (404).
const DeletedLine = "This thread was deleted on the runtime; New conversation makes a new one."

// Errors of state changes; each wraps a transport error.
var (
	ErrThreadDeleted = fmt.Errorf("threads: the thread was deleted: %w", transport.ErrNotReady)
	ErrAgentUnknown  = fmt.Errorf("threads: the agent is not on the runtime: %w", transport.ErrNotConfigured)
)

// Config is what a threads transport is made from. Endpoint is required.
type Config struct {
	// Endpoint is the runtime's base URL (its origin is used), read on
	// every attempt; "" is not configured. Key is the API key, read on
	// every request; it travels only as a Bearer header to that origin.
	Endpoint func() string
	Key      func() string
	// Agent is the agent a new thread is made for (at the first connect
	// without a thread, and on reset).
	Agent func() string
	// Thread is the thread to attach to; "" makes a new one.
	Thread string
	// SaveThread remembers a thread the client made (the preset keeps
	// its id); nil keeps it in memory. Called on the client's own
	// goroutine; it must not call the Transport.
	SaveThread func(id string) error
	// OnStatus hears the thread and its problem whenever they change, in
	// order with the Handler's calls; nil ignores them.
	OnStatus func(Status)
	// HTTPClient carries the HTTP calls and the handshake; nil is
	// httpapi.NewClient(). Redirects are refused either way.
	HTTPClient *http.Client
	// Logger receives the wire's lines (never a key, ticket or image).
	Logger *slog.Logger
	// Jitter returns a number in [0, 1) for the reconnect jitter; nil is
	// math/rand/v2.
	Jitter func() float64
}

// Transport is the Standard Agents threads wire: a character attached to
// one thread of a runtime. See the package documentation.
type Transport struct {
	cfg   Config
	log   *slog.Logger
	hc    *http.Client
	q     *callqueue.Queue
	jobs  chan job
	ctx   context.Context // ended by Close
	stop  context.CancelFunc
	wg    sync.WaitGroup
	order sync.Mutex // frames wait while a message is posted or caught up

	mu       sync.Mutex
	h        transport.Handler
	started  bool
	closed   bool
	silent   bool // no handler call after Close's last
	state    transport.State
	thread   string
	problem  string
	failures int // reconnects scheduled since the last open (the backoff's n)
	closes   int // closes before an open, since the last open or key check
	retry    *time.Timer
	cur      *socket
	lastDone chan struct{}
	m        *model
	waits    map[string]*time.Timer
	sending  map[string]*sendJob
}

var _ transport.Transport = (*Transport)(nil)

// New makes a threads transport; nothing connects until Start.
func New(cfg Config) (*Transport, error) {
	if cfg.Endpoint == nil {
		return nil, errors.New("threads: Config.Endpoint is nil")
	}
	if cfg.Key == nil {
		cfg.Key = func() string { return "" }
	}
	if cfg.Agent == nil {
		cfg.Agent = func() string { return "" }
	}
	if cfg.Jitter == nil {
		cfg.Jitter = rand.Float64
	}
	cfg.Thread = strings.TrimSpace(cfg.Thread)
	if cfg.Thread != "" && !ValidThreadID(cfg.Thread) {
		return nil, fmt.Errorf("threads: thread id %q is not a usable id", httpapi.OneLine(cfg.Thread, 80))
	}
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t := &Transport{cfg: cfg, log: lg, hc: guarded(cfg.HTTPClient), q: callqueue.New(), jobs: make(chan job, maxJobs),
		ctx: ctx, stop: cancel, h: transport.HandlerFuncs{}, thread: cfg.Thread,
		waits: map[string]*time.Timer{}, sending: map[string]*sendJob{}}
	t.m = newModel(lg, t.emitLocked, t.endedLocked)
	return t, nil
}

// Thread is the thread the transport follows now ("" before one is made).
func (t *Transport) Thread() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.thread
}

// Start records h and starts connecting (or reports not configured).
func (t *Transport) Start(h transport.Handler) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.started || t.closed {
		return
	}
	if h != nil {
		t.h = h
	}
	t.started = true
	t.wg.Add(1)
	go t.sender()
	t.statusLocked()
	t.attemptLocked()
}

// Close ends the transport: the socket, every timer and request; running
// turns end silently; the final state change is the last handler call.
func (t *Transport) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	t.stop()
	t.stopRetryLocked()
	for id, w := range t.waits {
		w.Stop()
		delete(t.waits, id)
	}
	if s := t.cur; s != nil {
		t.detachLocked(s)
	}
	close(t.jobs)
	t.setStateLocked(transport.StateChange{To: transport.StateDisconnected, Code: -1})
	t.silent = true // the final state change was the last call
	t.mu.Unlock()
	t.wg.Wait()
	t.q.Close()
	return nil
}

// Reconnect is the user's reconnect: a fresh attempt now, the delays back
// at their start. It also retries after a refused key or a deleted thread
// (once: a thread still deleted stays so).
func (t *Transport) Reconnect() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.started || t.closed {
		return
	}
	t.failures, t.closes = 0, 0
	t.attemptLocked()
}

// Capabilities: images within MaxTurnBytes, backend-started turns, and a
// stop the runtime hears.
func (t *Transport) Capabilities() transport.Capabilities {
	return transport.Capabilities{Images: true, MaxTurnBytes: MaxTurnBytes, BackendTurns: true, StopFrames: true}
}

// EncodeTurn is the POST …/messages body of the turn.
func (t *Transport) EncodeTurn(tu transport.Turn) ([]byte, error) { return encodeTurn(tu) }

// SetVocabulary does nothing: the agent is defined on the runtime, and this
// wire declares no cue tool.
func (t *Transport) SetVocabulary(transport.Vocabulary) {}

// ReportPlayback: the wire has no playback report.
func (t *Transport) ReportPlayback(context.Context, string) error { return transport.ErrNotSupported }

// ---- handler calls ----

func (t *Transport) dispatchLocked(fn func(h transport.Handler)) {
	if t.silent {
		return
	}
	h := t.h
	t.q.PushCounted(func() { fn(h) })
}

func (t *Transport) emitLocked(e transport.Event) {
	t.dispatchLocked(func(h transport.Handler) { h.HandleEvent(e) })
}

func (t *Transport) setStateLocked(c transport.StateChange) {
	if c.To == t.state && c.To != transport.StateReconnecting && c.Err == nil {
		return
	}
	c.From = t.state
	t.state = c.To
	t.dispatchLocked(func(h transport.Handler) { h.HandleState(c) })
}

// statusLocked tells the owner the thread and its problem.
func (t *Transport) statusLocked() {
	if t.cfg.OnStatus == nil {
		return
	}
	st := Status{Thread: t.thread, Problem: t.problem}
	fn := t.cfg.OnStatus
	t.dispatchLocked(func(transport.Handler) { fn(st) })
}

// ---- turn waits ----

// endedLocked stops a client turn's wait (its TurnEnd went out).
func (t *Transport) endedLocked(id string) {
	if w := t.waits[id]; w != nil {
		w.Stop()
		delete(t.waits, id)
	}
}

func (t *Transport) armWaitLocked(id string) {
	if w := t.waits[id]; w != nil {
		w.Reset(TurnWait)
		return
	}
	t.waits[id] = time.AfterFunc(TurnWait, func() { t.waitPassed(id) })
}

// touchLocked restarts the waits of the outstanding turns: the thread is
// alive.
func (t *Transport) touchLocked() {
	for _, w := range t.waits {
		w.Reset(TurnWait)
	}
}

func (t *Transport) waitPassed(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.waits[id] == nil {
		return
	}
	delete(t.waits, id)
	rendered := false
	if tu := t.m.find(id); tu != nil {
		rendered = tu.rendered
	}
	t.log.Warn("network_stall", "stage", "thread_wait", "turn_id", id, "rendered", rendered)
	w := transport.TurnWaitEnded{TurnID: id, Rendered: rendered, Reason: transport.WaitPassed}
	t.dispatchLocked(func(h transport.Handler) { h.HandleTurnWait(w) })
}

// ForgetTurn stops a turn's wait without a report.
func (t *Transport) ForgetTurn(turnID string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.endedLocked(turnID)
}
