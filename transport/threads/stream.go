package threads

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"
	"yui/transport"

	"github.com/coder/websocket"
)

// The stream once connected: reading frames, the heartbeat, and how a socket ends.

// read reads the stream until it ends and returns its close code (-1:
// none) and reason.
func (t *Transport) read(s *socket, conn *websocket.Conn) (int, string, error) {
	var buf bytes.Buffer
	for {
		typ, r, err := conn.Reader(context.Background())
		if err != nil {
			return closeOf(err)
		}
		buf.Reset()
		n, err := buf.ReadFrom(io.LimitReader(r, maxFrame+1))
		if err != nil {
			return closeOf(err)
		}
		t.alive(s)
		if n > maxFrame {
			rest, err := io.Copy(io.Discard, r)
			t.log.Warn("frame_oversize", "direction", "in", "bytes", n+rest, "limit", maxFrame)
			if err != nil {
				return closeOf(err)
			}
			continue
		}
		if typ != websocket.MessageText {
			t.log.Warn("frame_parse_failed", "error", "binary message", "bytes", n)
			continue
		}
		f, err := decodeFrame(buf.Bytes())
		if errors.Is(err, errNotFrame) {
			continue // a heartbeat answer
		}
		if err != nil {
			t.log.Warn("frame_parse_failed", "error", err.Error(), "bytes", n)
			continue
		}
		t.order.Lock()
		t.mu.Lock()
		if t.cur == s {
			t.m.frame(f)
			t.touchLocked()
		}
		t.mu.Unlock()
		t.order.Unlock()
		// A handler that is behind holds the socket back (backpressure):
		// the next frame is read when the queue has room.
		t.q.WaitRoom(s.ctx.Done())
	}
}

func closeOf(err error) (int, string, error) {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return int(ce.Code), ce.Reason, err
	}
	return -1, "", err
}

// alive notes that the socket spoke: the heartbeat starts over.
func (t *Transport) alive(s *socket) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur == s && s.hb != nil {
		s.pinged = false
		s.hb.Reset(HeartbeatIdle)
	}
}

// heartbeat runs after HeartbeatIdle of silence: it sends stream_ping, or,
// when the last ping got no answer either, drops the dead socket.
func (t *Transport) heartbeat(s *socket) {
	t.mu.Lock()
	if t.cur != s || s.conn == nil {
		t.mu.Unlock()
		return
	}
	conn := s.conn
	if s.pinged {
		t.mu.Unlock()
		t.log.Warn("network_stall", "stage", "heartbeat", "silent_ms", (2 * HeartbeatIdle).Milliseconds())
		_ = conn.CloseNow()
		return
	}
	s.pinged = true
	s.hb.Reset(HeartbeatIdle)
	t.mu.Unlock()
	ctx, cancel := context.WithTimeout(s.ctx, HeartbeatIdle)
	defer cancel()
	if err := conn.Write(ctx, websocket.MessageText, []byte(Ping)); err != nil {
		t.log.Info("threads.ping_failed", "err", err.Error())
	}
}

// finish applies how s ended: a retry armed with its delay, or a state
// that waits for the user (deleted thread, refused key, unknown agent).
func (t *Transport) finish(s *socket, end endKind, code int, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur != s || t.closed {
		return
	}
	wasOpen := s.open
	t.detachLocked(s)
	lost := func(id string, rendered bool) {
		w := transport.TurnWaitEnded{TurnID: id, Rendered: rendered, Reason: transport.SocketLeftReady}
		t.dispatchLocked(func(h transport.Handler) { h.HandleTurnWait(w) })
	}
	switch end {
	case endDeleted:
		t.deletedLocked(code)
		return
	case endRefused:
		t.log.Warn("threads.key_refused", "err", errText(err))
		t.m.abandon(lost)
		t.setStateLocked(transport.StateChange{To: transport.StateFailed, Err: fmt.Errorf("threads: %w: %w", transport.ErrUnauthorized, err), Code: code})
		return
	case endAgent:
		t.log.Warn("threads.agent_unknown", "err", errText(err))
		t.problem = ProblemAgent
		t.statusLocked()
		t.setStateLocked(transport.StateChange{To: transport.StateFailed, Err: ErrAgentUnknown, Code: code})
		return
	case endNotConfigured:
		t.log.Warn("threads.not_configured", "err", errText(err))
		t.setStateLocked(transport.StateChange{To: transport.StateDisconnected, Err: fmt.Errorf("%w: %w", transport.ErrNotConfigured, err), Code: -1})
		return
	}
	if !wasOpen {
		t.closes++
	}
	delay := Backoff(t.failures, t.cfg.Jitter())
	t.failures++
	t.log.Info("ws_reconnect", "delay_ms", delay.Milliseconds(), "attempt", t.failures, "err", errText(err))
	t.retry = time.AfterFunc(delay, t.retryNow)
	t.setStateLocked(transport.StateChange{To: transport.StateReconnecting, Err: err, Code: code, RetryIn: delay})
}

// deletedLocked takes the thread as deleted: the socket there is drops
// (the runtime closes it, maybe only seconds later), every outstanding turn
// ends as lost with the link, and the state is failed with
// ErrThreadDeleted and ProblemDeleted; nothing reconnects to the thread
// (Reset makes a new one). code is the close that said so (-1: none).
func (t *Transport) deletedLocked(code int) {
	if s := t.cur; s != nil {
		t.detachLocked(s)
	}
	t.stopRetryLocked()
	t.log.Warn("threads.thread_deleted", "thread", t.thread)
	t.problem = ProblemDeleted
	t.statusLocked()
	t.m.abandon(func(id string, rendered bool) {
		w := transport.TurnWaitEnded{TurnID: id, Rendered: rendered, Reason: transport.SocketLeftReady}
		t.dispatchLocked(func(h transport.Handler) { h.HandleTurnWait(w) })
	})
	t.setStateLocked(transport.StateChange{To: transport.StateFailed, Err: ErrThreadDeleted, Code: code})
}

func (t *Transport) retryNow() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.retry == nil {
		return
	}
	t.retry = nil
	t.attemptLocked()
}
