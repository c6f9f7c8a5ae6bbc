package transport

import "context"

// Transport is one character's link to its backend: a push socket, or the
// request/response loop of an OpenAI-style API. Create it with the wire's
// constructor, then Start it with the session's Handler; Close ends it for
// good. Every method is safe for concurrent use.
type Transport interface {
	// Start begins connecting (or reports not-configured) and delivers
	// every later event to h. Calls after the first and after Close do
	// nothing.
	Start(h Handler)
	// Close ends the link: it aborts what is in flight, stops every
	// timer, emits the final state change and then stops calling the
	// Handler. Running turns end silently (closing is no network failure).
	// Not from a Handler method.
	Close() error
	// Reconnect is the user's "reconnect": a fresh attempt now, with any
	// retry schedule back at its start. Wires without a connection do
	// nothing but re-announce their state.
	Reconnect()
	// Capabilities says what the wire carries right now (images and the
	// turn budget may change with the connection).
	Capabilities() Capabilities
	// EncodeTurn is what t costs on this wire: the bytes the wire counts
	// against Capabilities().MaxTurnBytes (push: the turn frame; a request
	// transport: the user message). The session fits images with it.
	EncodeTurn(t Turn) ([]byte, error)
	// SendTurn sends one turn. It returns an error wrapping ErrNotReady
	// (the spec's network failure), ErrOversize, ErrImagesNotAccepted or
	// ErrNotConfigured when the turn did not go out. After a nil return
	// the turn ends through a TurnEnd event or a TurnWaitEnded report
	// (possibly both, wait first), unless ForgetTurn is called.
	SendTurn(ctx context.Context, t Turn) error
	// Stop is the stop button: the turns are marked stopped (MarkStopped)
	// and the wire is told — a stop frame on push, the request aborted on
	// a request transport. An error says the wire could not be told; the
	// marking happened anyway.
	Stop(ctx context.Context, turnIDs []string) error
	// MarkStopped records that the session stopped these turns without
	// the stop button (a new turn, barge-in): their tool calls are
	// answered "error: turn stopped", and a request transport aborts
	// their requests.
	MarkStopped(turnIDs ...string)
	// ForgetTurn stops the frame wait (idle limit) of a turn without
	// reporting it.
	ForgetTurn(turnID string)
	// Reset starts a new conversation: a reset frame, a transcript
	// boundary, or a cleared response id.
	Reset(ctx context.Context) error
	// ReportPlayback reports a saved failed record of a turn (push's
	// playback frame). Wires without it return ErrNotSupported.
	ReportPlayback(ctx context.Context, turnID string) error
	// SetVocabulary records what the character renders now; the wire
	// sends it (push) or uses it for the cue tool's enums.
	SetVocabulary(v Vocabulary)
}

// Capabilities are what a wire can carry (the spec's table).
type Capabilities struct {
	// Images: a turn may carry images (screenshot, attachments).
	Images bool
	// MaxTurnBytes is the largest EncodeTurn output the wire takes.
	MaxTurnBytes int
	// BackendTurns: the backend may start turns of its own.
	BackendTurns bool
	// Delegations: the backend reports delegated work.
	Delegations bool
	// PlaybackReports: ReportPlayback reaches the backend.
	PlaybackReports bool
	// StopFrames: Stop tells the backend (rather than only aborting a
	// request).
	StopFrames bool
}

// Turn is one user or client-started turn.
type Turn struct {
	TurnID string
	// ClientContext is the client_context block, tags included.
	ClientContext string
	// Text is the utterance, "" on a turn no user typed or spoke.
	Text string
	// Images are data URLs: the screenshot first, then attachments.
	Images []string
}

// Handler receives what a Transport reads and what happens to its link.
// The Transport calls it from one goroutine, one call at a time, in event
// order; a call may take as long as it likes without stalling the wire's
// writes, and may call any Transport method except Close. Backend events
// queue for it only up to a bound (64): past that the wire reads no
// further until the Handler catches up (backpressure), so a backend that
// sends faster than the Handler takes events fills a socket's buffers, not
// the client's memory.
type Handler interface {
	// HandleEvent receives Render, Speech, TurnEnd, TurnError,
	// ToolStatus, Reasoning and Delegations values.
	HandleEvent(e Event)
	// HandleState receives every state transition.
	HandleState(c StateChange)
	// HandleTurnWait receives the end of a turn's wait: the wait (idle
	// limit) passed, or the link was lost while the turn was running. At
	// most one per turn sent with SendTurn, none after ForgetTurn.
	HandleTurnWait(w TurnWaitEnded)
	// HandleToolCall hears of every client tool call the wire answers,
	// when it is accepted; HandleToolResult of every answer, as sent.
	HandleToolCall(c ToolCall)
	HandleToolResult(r ToolResult)
}

// HandlerFuncs adapts optional functions to [Handler]; nil fields ignore
// their events.
type HandlerFuncs struct {
	Event      func(Event)
	State      func(StateChange)
	TurnWait   func(TurnWaitEnded)
	ToolCall   func(ToolCall)
	ToolResult func(ToolResult)
}

func (h HandlerFuncs) HandleEvent(e Event) {
	if h.Event != nil {
		h.Event(e)
	}
}

func (h HandlerFuncs) HandleState(c StateChange) {
	if h.State != nil {
		h.State(c)
	}
}

func (h HandlerFuncs) HandleTurnWait(w TurnWaitEnded) {
	if h.TurnWait != nil {
		h.TurnWait(w)
	}
}

func (h HandlerFuncs) HandleToolCall(c ToolCall) {
	if h.ToolCall != nil {
		h.ToolCall(c)
	}
}

func (h HandlerFuncs) HandleToolResult(r ToolResult) {
	if h.ToolResult != nil {
		h.ToolResult(r)
	}
}
