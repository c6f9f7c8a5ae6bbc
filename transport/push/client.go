package push

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"yui/transport"
	"yui/transport/httpapi"
	"yui/transport/internal/callqueue"
)

// Config is what a session gives a Client. Only ChatID and Endpoint are required.
type Config struct {
	// Endpoint returns chat_base_url. It is read fresh on every attempt, and
	// blank means "not configured". Endpoint and Key are called with the
	// client's lock held: they must return quickly and not call the Client.
	Endpoint func() string
	// Key returns the chat API key, read fresh on every attempt. It only
	// ever travels in hello and never reaches a log.
	Key func() string
	// ChatID is the conversation id, reused on every connection.
	ChatID string
	// Vocabulary is the initial vocabulary; see SetVocabulary.
	Vocabulary Vocabulary
	// Tools are the client tools declared in hello.tools, fixed for the
	// client's life (a session whose tool set changes makes a new Client).
	Tools []Tool
	// ImageFitter, when set, shrinks tool_result images that would take the
	// frame over its limit. Without it such a result is "error: result too large".
	ImageFitter ImageFitter
	// Handler receives the backend's frames as transport events, state
	// changes, turn waits and the client tool calls it answers; nil
	// ignores them. See [transport.Handler]; here, HandleEvent receives
	// Render, Speech, TurnEnd, TurnError (an error frame), ToolStatus,
	// Reasoning and Delegations of a ready socket (ready and tool_call are
	// the client's own), and HandleToolCall every tool_call the client
	// answers (with any answer: a result, an error at once, "error: turn
	// stopped", a timeout) when it is accepted, HandleToolResult every
	// tool_result frame written, exactly as sent. A tool_call dropped
	// unanswered (unreadable, or a repeated id) and a result that could not
	// be written are not reported. A call may take as long as it likes:
	// events queue behind it, but at most MaxPendingFrames frames — past
	// that the client stops reading the socket until the Handler catches
	// up (its timers, sends and tool calls go on).
	Handler transport.Handler
	// Logger receives the client's log lines; nil discards them.
	Logger *slog.Logger
	// HTTPClient performs the opening handshake; nil is httpapi.NewClient()
	// (the environment's proxy, never for loopback). Redirects are refused
	// either way: the hello, which carries the key, goes only to the
	// endpoint it was entered for. Tests inject an in-memory transport here.
	HTTPClient *http.Client
}

// Client holds one push connection for one chat. Create it with New, then
// Start it; Close ends it for good.
type Client struct {
	cfg     Config
	log     *slog.Logger
	handler transport.Handler
	tools   map[string]Tool
	schemas []ToolSchema
	disp    *callqueue.Queue
	wg      sync.WaitGroup // socket goroutines and their helpers
	closeMu sync.Mutex     // serialises Close

	mu       sync.Mutex
	state    State
	started  bool
	closed   bool
	cur      *socket // the attempt in flight or the ready socket
	lastDone chan struct{}
	failures int // failed attempts since the last ready
	retry    *time.Timer
	retrySeq uint64
	vocab    Vocabulary
	turns    map[string]*turnWatch
	// leftReady are turns a lost socket ended, reported after the state
	// change that follows (endTurnsLocked, setStateLocked).
	leftReady []TurnWaitEnded
	stopped   stoppedSet
}

// New checks cfg and returns a client in StateDisconnected. It starts no
// connection; call Start.
func New(cfg Config) (*Client, error) {
	if cfg.Endpoint == nil {
		return nil, fmt.Errorf("push: new client: Config.Endpoint is nil")
	}
	if strings.TrimSpace(cfg.ChatID) == "" {
		return nil, fmt.Errorf("push: new client: Config.ChatID is blank")
	}
	if cfg.Key == nil {
		cfg.Key = func() string { return "" }
	}
	cfg.HTTPClient = httpapi.Guard(cfg.HTTPClient)
	c := &Client{
		cfg:     cfg,
		log:     cfg.Logger,
		handler: cfg.Handler,
		tools:   make(map[string]Tool, len(cfg.Tools)),
		vocab:   cfg.Vocabulary,
		turns:   make(map[string]*turnWatch),
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.handler == nil {
		c.handler = transport.HandlerFuncs{}
	}
	for _, t := range cfg.Tools {
		s := t.Schema()
		if s.Name == "" {
			return nil, fmt.Errorf("push: new client: a tool has no name")
		}
		if _, dup := c.tools[s.Name]; dup {
			return nil, fmt.Errorf("push: new client: tool %q declared twice", s.Name)
		}
		c.tools[s.Name] = t
		c.schemas = append(c.schemas, ToolSchema{Type: "function", Function: s})
	}
	c.disp = callqueue.New()
	return c, nil
}

// Start begins connecting (or reports not-configured). Calls after the first
// and after Close do nothing.
func (c *Client) Start() { c.startWith(nil) }

// startWith is Start with h, when not nil, as the Handler from now on.
func (c *Client) startWith(h transport.Handler) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.started || c.closed {
		return
	}
	if h != nil {
		c.handler = h
	}
	c.started = true
	c.startAttemptLocked()
}

// State returns the current connection state.
func (c *Client) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// MaxTurnBytes returns the largest turn frame the ready socket accepts: the
// backend's max_turn_bytes, or MaxFrameBytes when it stated none or the
// socket is not ready.
func (c *Client) MaxTurnBytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur != nil && c.cur.ready && c.cur.maxTurnBytes > 0 {
		return c.cur.maxTurnBytes
	}
	return MaxFrameBytes
}

// AcceptsImages reports whether the ready socket's backend stated
// max_turn_bytes, which is what allows turn.images.
func (c *Client) AcceptsImages() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cur != nil && c.cur.ready && c.cur.maxTurnBytes > 0
}

// ReconnectNow is the user's "reconnect": it drops any socket, attempt or
// armed retry and starts a fresh attempt at once, with the delay schedule
// back at its first value. It is how a Failed (4401) client retries
// (settings changes get a new client). A turn running on a dropped ready socket ends as a
// network failure (HandleTurnWait).
func (c *Client) ReconnectNow() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.started || c.closed {
		return
	}
	c.restartLocked()
}

// Close ends the client: it closes the socket with 1000, stops every timer,
// waits for the client's goroutines (a graceful close is bounded by the
// websocket library's 5 s close-handshake waits), emits the final state
// change and then stops calling the Handler. Tool runs are cancelled and
// not waited for. The frame waits of running turns end silently: closing
// is no network failure, so no network_drop line and no HandleTurnWait.
// Close must not be called from a Handler method. Later calls return at once.
func (c *Client) Close() error {
	c.closeMu.Lock()
	defer c.closeMu.Unlock()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.stopRetryLocked()
	// Closing is no network failure: the running turns' waits end silently
	// (no network_drop, no HandleTurnWait).
	for id, w := range c.turns {
		w.timer.Stop()
		delete(c.turns, id)
	}
	s := c.cur
	if s != nil {
		c.detachLocked(s)
	}
	c.setStateLocked(StateChange{To: StateDisconnected, Code: -1})
	c.mu.Unlock()
	if s != nil {
		s.closeConn(1000, "client closed", false)
	}
	c.wg.Wait()
	c.disp.Close()
	return nil
}

// ---- state machine (all *Locked methods need c.mu) ----

// setStateLocked records and emits a transition. A transition to the same
// state is emitted only when it carries an error (a clear "not configured").
func (c *Client) setStateLocked(sc StateChange) {
	// Turns a lost socket ended are reported after the state change.
	defer c.flushLeftReadyLocked()
	sc.From = c.state
	if sc.From == sc.To && sc.Err == nil {
		return
	}
	c.state = sc.To
	h := c.handler
	c.disp.Push(func() { h.HandleState(sc) })
}

func (c *Client) stopRetryLocked() {
	if c.retry != nil {
		c.retry.Stop()
		c.retry = nil
	}
	c.retrySeq++
}

// restartLocked drops the current socket or retry and attempts at once.
func (c *Client) restartLocked() {
	c.stopRetryLocked()
	if s := c.cur; s != nil {
		c.detachLocked(s)
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			s.closeConn(1000, "reconnecting", false)
		}()
	}
	c.failures = 0
	c.startAttemptLocked()
}

// startAttemptLocked starts one attempt, or reports not-configured.
func (c *Client) startAttemptLocked() {
	ep, key := c.cfg.Endpoint(), c.cfg.Key()
	if strings.TrimSpace(ep) == "" {
		c.log.Info(EventNotConfigured)
		c.setStateLocked(StateChange{To: StateDisconnected, Err: ErrNotConfigured, Code: -1})
		return
	}
	u, err := WebSocketURL(ep)
	if err != nil {
		c.log.Warn(EventOpenFailed, "error", err.Error())
		c.scheduleRetryLocked(-1, err)
		return
	}
	s := newSocket(c, u, key)
	c.cur = s
	prev := c.lastDone
	c.lastDone = s.done
	c.wg.Add(1)
	go s.run(prev)
	c.setStateLocked(StateChange{To: StateConnecting, Code: -1})
}

// scheduleRetryLocked arms the next attempt per the backoff schedule.
func (c *Client) scheduleRetryLocked(code int, cause error) {
	delay := Backoff(c.failures)
	c.failures++
	c.stopRetryLocked()
	seq := c.retrySeq
	c.retry = time.AfterFunc(delay, func() { c.retryFired(seq) })
	c.log.Info(EventReconnect, "delay_ms", delay.Milliseconds(), "attempt", c.failures)
	c.setStateLocked(StateChange{To: StateReconnecting, Err: cause, Code: code, RetryIn: delay})
}

func (c *Client) retryFired(seq uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || seq != c.retrySeq || c.cur != nil {
		return
	}
	c.retry = nil
	c.startAttemptLocked()
}

// socketEnded is called once a socket or attempt is over: its dial failed,
// it closed, or its hello wait passed. Events of a socket the client has
// moved on from are ignored.
func (c *Client) socketEnded(s *socket, code int, cause error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur != s || c.closed {
		return
	}
	c.detachLocked(s)
	if code == 4401 {
		c.setStateLocked(StateChange{To: StateFailed, Err: ErrUnauthorized, Code: code})
		return
	}
	c.scheduleRetryLocked(code, cause)
}

// detachLocked makes s no longer current: its timers stop, its tool calls
// are cancelled, and the turns running on it end as network failures.
func (c *Client) detachLocked(s *socket) {
	if c.cur == s {
		c.cur = nil
	}
	s.killLocked()
	c.endTurnsLocked(s.ready)
}

// onReadyLocked handles the first ready of the current socket.
func (c *Client) onReadyLocked(s *socket, r Ready) {
	s.helloTimer.Stop()
	s.ready = true
	s.maxTurnBytes = r.MaxTurnBytes
	c.failures = 0
	c.log.Info(EventReady, "max_turn_bytes", r.MaxTurnBytes)
	s.tools = newToolQueue(c, s)
	c.wg.Add(2)
	go s.tools.loop()
	go s.vocabLoop()
	c.setStateLocked(StateChange{To: StateReady, Code: -1})
}

// helloTimedOut closes an attempt whose ready did not come in time.
func (c *Client) helloTimedOut(s *socket) {
	c.mu.Lock()
	if c.cur != s || s.ready || c.closed {
		c.mu.Unlock()
		return
	}
	c.log.Warn(EventReadyTimeout, "wait_ms", HelloWait.Milliseconds())
	s.localClose = true
	c.detachLocked(s)
	c.scheduleRetryLocked(-1, ErrReadyTimeout)
	c.mu.Unlock()
	s.closeConn(0, "", true)
}
