package view

import (
	"context"

	"github.com/coder/websocket"
)

// One page's socket: its bounded send queue and write loop.

// send queues b and never blocks: a connection whose queue is full (in
// messages or bytes) is dropped rather than allowed to hold up the core.
// It may be called with the server's lock held.
func (c *conn) send(b []byte) {
	select {
	case <-c.done:
		return
	default:
	}
	if c.queued.Add(int64(len(b))) > sendQueueBytes {
		c.queued.Add(-int64(len(b)))
		c.drop("queue_bytes")
		return
	}
	select {
	case c.out <- b:
	default:
		c.queued.Add(-int64(len(b)))
		c.drop("queue_full")
	}
}

func (c *conn) stop() { c.once.Do(func() { close(c.done) }) }

// drop ends a connection that fell behind: its pending and future writes
// end at once, and the close (CloseTooSlow, so the page reconnects) runs
// on its own goroutine, never on the publisher's.
func (c *conn) drop(reason string) {
	first := false
	c.once.Do(func() { close(c.done); first = true })
	if !first {
		return
	}
	c.log.Warn("view_dropped", "peer", c.peer.ID, "role", c.peer.Role, "preset", c.peer.Preset, "reason", reason,
		"queued_bytes", c.queued.Load())
	c.cancel()
	go c.ws.Close(CloseTooSlow, "view: too slow")
}

func (c *conn) writeLoop(ctx context.Context) {
	for {
		select {
		case <-c.done:
			return
		case b := <-c.out:
			c.queued.Add(-int64(len(b)))
			wctx, cancel := context.WithTimeout(ctx, WriteTimeout)
			err := c.ws.Write(wctx, websocket.MessageText, b)
			timedOut := wctx.Err() == context.DeadlineExceeded
			cancel()
			if timedOut {
				c.drop("write_timeout")
				return
			}
			if err != nil {
				c.stop()
				return
			}
		}
	}
}
