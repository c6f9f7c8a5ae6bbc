package push

import (
	"context"
	"fmt"

	"yui/transport"
)

// Transport is a [Client] seen through the transport contract: the session
// talks to it as to any wire. Frames become transport events, 4401 becomes
// transport.ErrUnauthorized, and the capabilities follow the ready socket.
type Transport struct {
	c *Client
}

var _ transport.Transport = (*Transport)(nil)

// NewTransport makes the client from cfg (its Handler is replaced by the
// one Start is given) and wraps it.
func NewTransport(cfg Config) (*Transport, error) {
	c, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return &Transport{c: c}, nil
}

// Client is the wrapped push client.
func (t *Transport) Client() *Client { return t.c }

// Start starts the client with h as its Handler.
func (t *Transport) Start(h transport.Handler) { t.c.startWith(h) }

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

// FrameOf is the backend frame an event came from (Event the other way
// round); nil for an event no frame gives.
func FrameOf(e transport.Event) Frame {
	switch e := e.(type) {
	case transport.Render:
		return Render(e)
	case transport.Speech:
		return Speech(e)
	case transport.TurnEnd:
		return TurnEnd(e)
	case transport.TurnError:
		return ErrorFrame(e)
	case transport.ToolStatus:
		return ToolStatus(e)
	case transport.Reasoning:
		return Reasoning(e)
	case transport.Delegations:
		return Delegations(e)
	}
	return nil
}

// String names the transport in logs.
func (t *Transport) String() string { return fmt.Sprintf("push(%s)", t.c.cfg.ChatID) }
