package push

import (
	"context"
	"fmt"
	"sync"

	"yui/transport"
)

// Transport is a [Client] seen through the transport contract: the session
// talks to it as to any wire. Frames become transport events, 4401 becomes
// transport.ErrUnauthorized, and the capabilities follow the ready socket.
type Transport struct {
	c *Client

	mu sync.Mutex
	h  transport.Handler
}

var _ transport.Transport = (*Transport)(nil)

// NewTransport makes the client from cfg (its Handler is replaced by the
// one Start is given) and wraps it.
func NewTransport(cfg Config) (*Transport, error) {
	t := &Transport{h: transport.HandlerFuncs{}}
	cfg.Handler = adapter{t}
	c, err := New(cfg)
	if err != nil {
		return nil, err
	}
	t.c = c
	return t, nil
}

// Client is the wrapped push client.
func (t *Transport) Client() *Client { return t.c }

func (t *Transport) handler() transport.Handler {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.h
}

// Start records h and starts the client.
func (t *Transport) Start(h transport.Handler) {
	if h != nil {
		t.mu.Lock()
		t.h = h
		t.mu.Unlock()
	}
	t.c.Start()
}

func (t *Transport) Close() error { return t.c.Close() }

func (t *Transport) Reconnect() { t.c.ReconnectNow() }

// Capabilities: images and the turn budget come from the ready socket's
// max_turn_bytes; push carries backend turns, delegations, playback
// reports and stop frames.
func (t *Transport) Capabilities() transport.Capabilities {
	return transport.Capabilities{Images: t.c.AcceptsImages(), MaxTurnBytes: t.c.MaxTurnBytes(),
		BackendTurns: true, Delegations: true, PlaybackReports: true, StopFrames: true}
}

// EncodeTurn is the encoded turn frame.
func (t *Transport) EncodeTurn(tu transport.Turn) ([]byte, error) { return Encode(Turn(tu)) }

func (t *Transport) SendTurn(ctx context.Context, tu transport.Turn) error {
	return t.c.SendTurn(ctx, Turn(tu))
}

func (t *Transport) Stop(ctx context.Context, turnIDs []string) error {
	return t.c.SendStop(ctx, turnIDs)
}

func (t *Transport) MarkStopped(turnIDs ...string) { t.c.MarkStopped(turnIDs...) }

func (t *Transport) ForgetTurn(turnID string) { t.c.ForgetTurn(turnID) }

func (t *Transport) Reset(ctx context.Context) error { return t.c.SendReset(ctx) }

func (t *Transport) ReportPlayback(ctx context.Context, turnID string) error {
	return t.c.SendPlayback(ctx, turnID)
}

func (t *Transport) SetVocabulary(v transport.Vocabulary) { t.c.SetVocabulary(v) }

// adapter is the client's Handler: it converts and forwards.
type adapter struct{ t *Transport }

func (a adapter) HandleFrame(f Frame) {
	if ef, ok := f.(ErrorFrame); ok {
		// The backend's text reaches the log and the screen: never the
		// key, should it echo it.
		ef.Message = transport.RedactKey(ef.Message, a.t.c.cfg.Key())
		f = ef
	}
	if e := Event(f); e != nil {
		a.t.handler().HandleEvent(e)
	}
}

func (a adapter) HandleState(c StateChange) {
	a.t.handler().HandleState(transport.StateChange{From: c.From, To: c.To, Err: c.Err, Code: c.CloseCode, RetryIn: c.RetryIn})
}

func (a adapter) HandleTurnWait(w TurnWaitEnded) {
	a.t.handler().HandleTurnWait(w)
}

func (a adapter) HandleToolCall(c ToolCall) { a.t.handler().HandleToolCall(transport.ToolCall(c)) }

func (a adapter) HandleToolResult(r ToolResult) {
	a.t.handler().HandleToolResult(transport.ToolResult(r))
}

// Event converts a backend frame to its transport event; nil for frames
// that are not events (ready, tool_call, client frames).
func Event(f Frame) transport.Event {
	switch f := f.(type) {
	case Render:
		return transport.Render(f)
	case Speech:
		return transport.Speech(f)
	case TurnEnd:
		return transport.TurnEnd(f)
	case ErrorFrame:
		return transport.TurnError(f)
	case ToolStatus:
		return transport.ToolStatus(f)
	case Reasoning:
		return transport.Reasoning(f)
	case Delegations:
		return transport.Delegations(f)
	}
	return nil
}

// String names the transport in logs.
func (t *Transport) String() string { return fmt.Sprintf("push(%s)", t.c.cfg.ChatID) }
