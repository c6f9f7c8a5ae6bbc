package request

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"yui/transport"
	"yui/transport/internal/callqueue"
)

// Limits of the request transports (client-notes §6, the issue).
const (
	// FirstEventWait is the idle limit before a round's first event.
	FirstEventWait = 240 * time.Second
	// BetweenEventsWait is the idle limit between events after the first.
	BetweenEventsWait = 45 * time.Second
	// MaxRoundTrips is how many tool round trips one turn may make.
	MaxRoundTrips = 3
	// MaxTurnBytes bounds the user message of a turn (images included).
	MaxTurnBytes = 16 << 20
)

var (
	errStopped  = errors.New("turn stopped")
	errIdle     = errors.New("idle limit passed")
	errClosed   = errors.New("transport closed")
	errTurnTime = &StreamError{Text: TurnTooLong}
)

// Config is what a request transport is made from. Endpoint is required.
type Config struct {
	// Endpoint is the base URL ("https://api.openai.com/v1"), read per
	// turn; "" is not configured. Key is the bearer key, read per request.
	Endpoint func() string
	Key      func() string
	// Params reads the preset's model, effort, card and window per turn.
	Params func() Params
	// Character names the character in the refused-key line.
	Character string
	// Tools are the client tools, declared on every request.
	Tools []transport.Tool
	// MoreTools, when set, is read at the start of each turn: client
	// tools whose list changes while the character runs (the MCP
	// servers' tools, app/mcp). A name that clashes with a client tool or
	// the cue tool is left out.
	MoreTools func() []transport.Tool
	// Vocabulary gives the cue tool its enums.
	Vocabulary transport.Vocabulary
	// ImageFitter shrinks tool result images to the turn budget; nil
	// sends them as they are.
	ImageFitter transport.ImageFitter
	// Store keeps the conversation; nil keeps it in memory.
	Store Store
	// History, when set, is the transcript the turns send and the
	// exchanges are recorded in (the client's one store, e.g. the
	// character's transcript); Store then keeps only the Responses chain
	// state. A reset leaves History to the client.
	History transport.History
	// Memory, when set, is the character's memory: sent in the system
	// part of every request, and given the transcript's oldest part to
	// summarise when it no longer fits the window (docs/memory.md).
	Memory transport.Memory
	// HTTPClient sends the requests; nil is httpapi.NewClient(). Redirects
	// are refused either way.
	HTTPClient *http.Client
	// Logger receives the transport's lines (never a key or image).
	Logger *slog.Logger
}

// Engine is a request transport around a Wire.
type Engine struct {
	cfg   Config
	wire  Wire
	name  string
	hc    *http.Client
	log   *slog.Logger
	conv  *Conversation
	tools map[string]transport.Tool
	q     *callqueue.Queue
	quit  chan struct{} // closed by Close: runs waiting for queue room give up

	mu      sync.Mutex
	h       transport.Handler
	started bool
	closed  bool
	state   transport.State
	vocab   transport.Vocabulary
	runs    map[string]*run
	wg      sync.WaitGroup
}

var _ transport.Transport = (*Engine)(nil)

// New makes an engine for wire; name is the wire's name in errors.
func New(name string, wire Wire, cfg Config) (*Engine, error) {
	if cfg.Endpoint == nil {
		return nil, fmt.Errorf("%s: Config.Endpoint is nil", name)
	}
	if cfg.Key == nil {
		cfg.Key = func() string { return "" }
	}
	if cfg.Params == nil {
		cfg.Params = func() Params { return Params{} }
	}
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	e := &Engine{cfg: cfg, wire: wire, name: name, hc: guarded(cfg.HTTPClient), log: lg,
		tools: map[string]transport.Tool{}, vocab: cfg.Vocabulary, runs: map[string]*run{},
		h: transport.HandlerFuncs{}}
	for _, t := range cfg.Tools {
		n := t.Schema().Name
		if n == "" || IsCue(n) {
			return nil, fmt.Errorf("%s: tool name %q is blank or reserved", name, n)
		}
		if _, dup := e.tools[n]; dup {
			return nil, fmt.Errorf("%s: tool %q declared twice", name, n)
		}
		e.tools[n] = t
	}
	e.conv = OpenConversation(cfg.Store, lg)
	e.conv.hist = cfg.History
	e.q = callqueue.New()
	e.quit = make(chan struct{})
	return e, nil
}

// Conversation is the engine's client-held conversation (for its wire).
func (e *Engine) Conversation() *Conversation { return e.conv }

// Start announces the state: ready with a base URL, not configured without.
func (e *Engine) Start(h transport.Handler) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.started || e.closed {
		return
	}
	if h != nil {
		e.h = h
	}
	e.started = true
	e.announceLocked()
}

func (e *Engine) announceLocked() {
	to, err := transport.StateReady, error(nil)
	if strings.TrimSpace(e.cfg.Endpoint()) == "" {
		to, err = transport.StateDisconnected, transport.ErrNotConfigured
		e.log.Info("request_not_configured")
	}
	if to == e.state && err == nil && e.state == transport.StateReady {
		return
	}
	sc := transport.StateChange{From: e.state, To: to, Err: err, Code: -1}
	e.state = to
	h := e.h
	e.q.Push(func() { h.HandleState(sc) })
}

// Reconnect re-reads the base URL and announces the state.
func (e *Engine) Reconnect() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.started || e.closed {
		return
	}
	e.announceLocked()
}

// Close aborts every request, waits for the turns' goroutines, reports the
// final state and stops calling the handler. Running turns end silently.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	close(e.quit)
	for _, r := range e.runs {
		r.cancel(errClosed)
	}
	e.mu.Unlock()
	e.wg.Wait()
	e.mu.Lock()
	if e.state != transport.StateDisconnected {
		sc := transport.StateChange{From: e.state, To: transport.StateDisconnected, Code: -1}
		e.state = transport.StateDisconnected
		h := e.h
		e.q.Push(func() { h.HandleState(sc) })
	}
	e.mu.Unlock()
	e.q.Close()
	return nil
}

// Capabilities: images within MaxTurnBytes; no backend turns, delegations,
// playback reports or stop frames.
func (e *Engine) Capabilities() transport.Capabilities {
	return transport.Capabilities{Images: true, MaxTurnBytes: MaxTurnBytes}
}

// EncodeTurn is the wire's user message.
func (e *Engine) EncodeTurn(t transport.Turn) ([]byte, error) { return e.wire.UserMessage(t) }

// SetVocabulary changes the cue tool's enums from the next turn on.
func (e *Engine) SetVocabulary(v transport.Vocabulary) {
	e.mu.Lock()
	e.vocab = v
	e.mu.Unlock()
}

// ReportPlayback: the request wires carry no playback report.
func (e *Engine) ReportPlayback(context.Context, string) error { return transport.ErrNotSupported }

// Reset aborts nothing (the session stopped the turns first) and starts a
// new conversation.
func (e *Engine) Reset(context.Context) error {
	e.conv.Boundary()
	e.wire.Reset()
	e.log.Info("request_reset")
	return nil
}

// Stop aborts the turns' requests (the stop button).
func (e *Engine) Stop(_ context.Context, turnIDs []string) error {
	e.MarkStopped(turnIDs...)
	return nil
}

// MarkStopped aborts the turns' requests; their tool calls end "error:
// turn stopped" and they end with a TurnEnd and nothing more.
func (e *Engine) MarkStopped(turnIDs ...string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, id := range turnIDs {
		if r := e.runs[id]; r != nil {
			r.cancel(errStopped)
		}
	}
}

// ForgetTurn ends the turn's idle limit without a report.
func (e *Engine) ForgetTurn(turnID string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if r := e.runs[turnID]; r != nil {
		r.forget()
	}
}

// SendTurn starts the turn's first request on its own goroutine.
func (e *Engine) SendTurn(_ context.Context, t transport.Turn) error {
	if t.TurnID == "" {
		return fmt.Errorf("%s: send turn: empty turn id", e.name)
	}
	b, err := e.wire.UserMessage(t)
	if err != nil {
		return fmt.Errorf("%s: send turn %s: %w", e.name, t.TurnID, err)
	}
	if len(b) > MaxTurnBytes {
		return fmt.Errorf("%s: send turn %s: %w", e.name, t.TurnID, transport.ErrOversize)
	}
	base := strings.TrimSpace(e.cfg.Endpoint())
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.closed:
		return fmt.Errorf("%s: send turn %s: %w", e.name, t.TurnID, transport.ErrClosed)
	case base == "":
		return fmt.Errorf("%s: send turn %s: %w: %w", e.name, t.TurnID, transport.ErrNotReady, transport.ErrNotConfigured)
	}
	r := newRun(e, t, base)
	e.runs[t.TurnID] = r
	e.wg.Add(1)
	go r.loop()
	return nil
}

// emit queues one event for the handler, first waiting while
// callqueue.MaxPending are queued (the run reads no further meanwhile).
func (e *Engine) emit(ev transport.Event) {
	e.mu.Lock()
	h, closed := e.h, e.closed
	e.mu.Unlock()
	if closed {
		return
	}
	e.q.PushEvent(func() { h.HandleEvent(ev) }, e.quit)
}

func (e *Engine) emitWait(w transport.TurnWaitEnded) {
	e.mu.Lock()
	h, closed := e.h, e.closed
	e.mu.Unlock()
	if closed {
		return
	}
	e.q.Push(func() { h.HandleTurnWait(w) })
}

func (e *Engine) emitTool(c transport.ToolCall, res transport.ToolResult) {
	e.mu.Lock()
	h, closed := e.h, e.closed
	e.mu.Unlock()
	if closed {
		return
	}
	e.q.PushEvent(func() { h.HandleToolCall(c); h.HandleToolResult(res) }, e.quit)
}

// schemas are the tools of a request: the cue tool, the client tools,
// then the turn's more tools.
func (e *Engine) schemas(more []transport.Tool) []transport.ToolSchema {
	e.mu.Lock()
	v := e.vocab
	e.mu.Unlock()
	out := []transport.ToolSchema{{Type: "function", Function: CueSchema(v)}}
	for _, t := range e.cfg.Tools {
		out = append(out, transport.ToolSchema{Type: "function", Function: t.Schema()})
	}
	for _, t := range more {
		out = append(out, transport.ToolSchema{Type: "function", Function: t.Schema()})
	}
	return out
}
