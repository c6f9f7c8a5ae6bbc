package push

import (
	"context"
	"fmt"

	"github.com/coder/websocket"
)

// readySocket returns the current socket when it is ready.
func (c *Client) readySocket() (*socket, *websocket.Conn, int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.cur
	if c.closed {
		return nil, nil, 0, ErrClosed
	}
	if s == nil || !s.ready {
		return nil, nil, 0, ErrNotReady
	}
	return s, s.conn, s.maxTurnBytes, nil
}

// writeFrame encodes f, enforces its size limit and writes it on conn. The
// write's context never ends (an ending context closes the connection);
// a socket that is torn down unblocks it.
func (c *Client) writeFrame(s *socket, conn *websocket.Conn, f Frame, maxTurnBytes int) error {
	b, err := Encode(f)
	if err != nil {
		return err
	}
	if limit := FrameLimit(f, maxTurnBytes); len(b) > limit {
		c.log.Warn(EventFrameOversize, "direction", "out", "frame_type", f.FrameType(), "bytes", len(b), "limit", limit)
		return &OversizeError{FrameType: f.FrameType(), Size: len(b), Limit: limit}
	}
	if err := conn.Write(context.Background(), websocket.MessageText, b); err != nil {
		return fmt.Errorf("push: send %s: %w: %w", f.FrameType(), ErrNotReady, err)
	}
	return nil
}

// send is the common path of the Send methods.
func (c *Client) send(ctx context.Context, f Frame) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("push: send %s: %w", f.FrameType(), err)
	}
	s, conn, mtb, err := c.readySocket()
	if err != nil {
		return fmt.Errorf("push: send %s: %w", f.FrameType(), err)
	}
	return c.writeFrame(s, conn, f, mtb)
}

// testHookTurnWritten, set by a test, runs between a turn frame's write
// and its being marked sent.
var testHookTurnWritten func()

// SendTurn sends a turn frame and starts its frame wait. It returns an error
// wrapping ErrNotReady when the socket is not ready or its write fails (the
// spec's network failure; a frame whose write completed is sent, even when
// the socket ends right after — its end is then reported through
// HandleTurnWait), *OversizeError (ErrOversize)
// when the frame is over MaxTurnBytes, and ErrImagesNotAccepted when the turn
// carries images and the backend stated no max_turn_bytes. After a nil
// return the turn ends through its turn_end (HandleEvent) or through
// HandleTurnWait, exactly one of them unless ForgetTurn is called.
//
// ctx is checked before the frame is written; it never bounds the write
// itself, because an expiring context closes a coder/websocket connection.
// Safe for concurrent use.
func (c *Client) SendTurn(ctx context.Context, t Turn) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("push: send turn: %w", err)
	}
	if t.TurnID == "" {
		return fmt.Errorf("push: send turn: empty turn_id")
	}
	s, conn, mtb, err := c.readySocket()
	if err != nil {
		return fmt.Errorf("push: send turn %s: %w", t.TurnID, err)
	}
	if len(t.Images) > 0 && mtb <= 0 {
		return fmt.Errorf("push: send turn %s: %w", t.TurnID, ErrImagesNotAccepted)
	}
	w := c.watchTurn(s, t.TurnID)
	if w == nil {
		return fmt.Errorf("push: send turn %s: %w", t.TurnID, ErrNotReady)
	}
	if err := c.writeFrame(s, conn, t, mtb); err != nil {
		c.unwatchTurn(w)
		return err
	}
	if testHookTurnWritten != nil {
		testHookTurnWritten()
	}
	c.markTurnSent(w)
	return nil
}

// SendStop marks the turns stopped for the tool runner (their queued and
// running tool calls are answered "error: turn stopped", later ones at once)
// and sends a stop frame naming them. The marking happens even when the
// frame cannot go out (ErrNotReady): stop is sent only while ready.
func (c *Client) SendStop(ctx context.Context, turnIDs []string) error {
	c.MarkStopped(turnIDs...)
	if err := c.send(ctx, Stop{TurnIDs: turnIDs}); err != nil {
		return err
	}
	c.log.Info(EventPushStop, "turns", len(turnIDs))
	return nil
}

// SendReset sends a reset frame.
func (c *Client) SendReset(ctx context.Context) error { return c.send(ctx, Reset{}) }

// SendPlayback sends one playback frame for a saved failed record.
func (c *Client) SendPlayback(ctx context.Context, turnID string) error {
	return c.send(ctx, Playback{TurnID: turnID, Ended: "failed"})
}
