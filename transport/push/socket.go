package push

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"yui/transport"
)

// socket is one connection attempt and, after ready, one ready socket. Its
// mutable fields are guarded by the client's mu.
type socket struct {
	c      *Client
	url    string
	key    string
	ctx    context.Context // cancelled on detach; bounds the dial only
	cancel context.CancelFunc
	done   chan struct{} // closed when run returns
	dead   chan struct{} // closed on detach
	once   sync.Once

	conn         *websocket.Conn
	helloTimer   *time.Timer
	ready        bool
	maxTurnBytes int
	vocabSent    Vocabulary
	vocabWake    chan struct{}
	answers      chan struct{} // slots of the immediate tool answers in flight
	tools        *toolQueue
	killed       bool
	localClose   bool // the client closed this socket
}

func newSocket(c *Client, url, key string) *socket {
	ctx, cancel := context.WithCancel(context.Background())
	return &socket{
		c: c, url: url, key: key, ctx: ctx, cancel: cancel,
		done: make(chan struct{}), dead: make(chan struct{}),
		vocabWake: make(chan struct{}, 1),
		answers:   make(chan struct{}, MaxPendingAnswers),
	}
}

// killLocked stops everything that belongs to s. Needs c.mu.
func (s *socket) killLocked() {
	if s.killed {
		return
	}
	s.killed = true
	s.cancel()
	close(s.dead)
	if s.helloTimer != nil {
		s.helloTimer.Stop()
	}
	if s.tools != nil {
		s.tools.shutdownLocked()
	}
}

// closeConn closes the socket's connection once: with a close handshake
// (code, reason), or at once when now is set. Safe before the dial finished:
// run closes a connection that arrives after the socket was killed.
func (s *socket) closeConn(code websocket.StatusCode, reason string, now bool) {
	s.c.mu.Lock()
	conn := s.conn
	s.localClose = true
	s.c.mu.Unlock()
	if conn == nil {
		return
	}
	s.once.Do(func() {
		if now {
			_ = conn.CloseNow()
		} else {
			_ = conn.Close(code, reason)
		}
	})
}

// finishConn closes conn at once unless a close is already under way, and
// in that case waits for it to complete (sync.Once), so that the next
// attempt starts only after this connection is fully closed.
func (s *socket) finishConn(conn *websocket.Conn) {
	s.once.Do(func() { _ = conn.CloseNow() })
}

// run dials, sends hello, and reads until the socket ends. prev is the done
// channel of the previous attempt: an attempt starts only after the previous
// one has fully ended, so at most one is ever on the wire.
func (s *socket) run(prev chan struct{}) {
	c := s.c
	defer c.wg.Done()
	defer close(s.done)
	if prev != nil {
		<-prev
	}
	if s.ctx.Err() != nil {
		return
	}
	dctx, cancel := context.WithTimeout(s.ctx, HelloWait)
	conn, err := websocketDial(dctx, s.url, c)
	cancel()
	if err != nil {
		err = redactErr(err)
		if s.ctx.Err() == nil {
			c.log.Warn(EventOpenFailed, "url", RedactURL(s.url), "error", err.Error())
		}
		c.socketEnded(s, -1, fmt.Errorf("push: dial %s: %w", RedactURL(s.url), err))
		return
	}
	conn.SetReadLimit(-1) // the client counts bytes itself; see readLoop

	c.mu.Lock()
	if c.cur != s || s.killed {
		c.mu.Unlock()
		_ = conn.CloseNow()
		return
	}
	s.conn = conn
	s.vocabSent = c.vocab
	hello := Hello{Key: s.key, ChatID: c.cfg.ChatID, Accepts: Accepts, Vocabulary: c.vocab, Tools: c.schemas}
	s.helloTimer = time.AfterFunc(HelloWait, func() { c.helloTimedOut(s) })
	c.mu.Unlock()
	c.log.Info(EventOpen, "url", RedactURL(s.url))

	b, err := Encode(hello)
	if err == nil && len(b) > MaxFrameBytes {
		c.log.Warn(EventFrameOversize, "direction", "out", "frame_type", TypeHello, "bytes", len(b), "limit", MaxFrameBytes)
		err = &OversizeError{FrameType: TypeHello, Size: len(b), Limit: MaxFrameBytes}
	}
	if err == nil {
		err = conn.Write(context.Background(), websocket.MessageText, b)
	}
	if err != nil {
		s.finishConn(conn)
		c.socketEnded(s, -1, fmt.Errorf("push: send hello: %w", err))
		return
	}

	code, err := s.readLoop(conn)
	c.mu.Lock()
	local := s.localClose
	c.mu.Unlock()
	by := "server"
	if local {
		by = "client"
	}
	c.log.Info(EventClose, "code", code, "by", by)
	s.finishConn(conn)
	c.socketEnded(s, code, err)
}

// websocketDial is the one place the client opens a connection.
func websocketDial(ctx context.Context, url string, c *Client) (*websocket.Conn, error) {
	conn, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: c.cfg.HTTPClient})
	return conn, upgradeError(resp, err)
}

// upgradeError types a dial error whose server answered with an HTTP
// status rather than switching protocols.
func upgradeError(resp *http.Response, err error) error {
	if err != nil && resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
		return &transport.UpgradeStatusError{Status: resp.StatusCode, Err: err}
	}
	return err
}

// readLoop reads frames until the connection ends and returns its close
// code (-1 when it ended without one). Each frame is read through Reader
// and counted: one over MaxFrameBytes is discarded to its end and the
// socket stays open. Reads use a context that never ends, so only a close
// ends them.
func (s *socket) readLoop(conn *websocket.Conn) (int, error) {
	c := s.c
	var buf bytes.Buffer
	for {
		// Backpressure: a Handler behind by MaxPendingFrames stops the
		// reading (the backend's writes then wait on the socket).
		if !c.disp.WaitRoom(s.dead) {
			return -1, errSocketGone
		}
		typ, r, err := conn.Reader(context.Background())
		if err != nil {
			return int(websocket.CloseStatus(err)), err
		}
		buf.Reset()
		n, err := buf.ReadFrom(io.LimitReader(r, MaxFrameBytes+1))
		if err != nil {
			return int(websocket.CloseStatus(err)), err
		}
		if n > MaxFrameBytes {
			rest, err := io.Copy(io.Discard, r)
			c.log.Warn(EventFrameOversize, "direction", "in", "bytes", n+rest, "limit", MaxFrameBytes)
			if err != nil {
				return int(websocket.CloseStatus(err)), err
			}
			continue
		}
		if typ != websocket.MessageText {
			c.log.Warn(EventParseFailed, "error", "binary message", "bytes", n)
			continue
		}
		c.handleInbound(s, buf.Bytes())
	}
}

// handleInbound decodes and routes one frame of s.
func (c *Client) handleInbound(s *socket, b []byte) {
	f, err := DecodeInbound(b)
	if err != nil {
		var de *DecodeError
		if !errors.As(err, &de) {
			de = &DecodeError{Kind: ParseFailed, Err: err}
		}
		switch de.Kind {
		case ParseFailed:
			c.log.Warn(EventParseFailed, "error", de.Error(), "bytes", len(b))
		case Malformed:
			c.log.Warn(EventMalformed, "frame_type", de.FrameType, "field", de.Field, "read_as_absent", f != nil)
		case Unknown:
			c.log.Info(EventUnknown, "frame_type", de.FrameType)
		}
		if f == nil {
			return
		}
	}
	if call, ok := f.(ToolCall); ok {
		c.toolCallArrived(s, call)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur != s || s.killed {
		return // a socket the client has moved on from
	}
	if !s.ready {
		if r, ok := f.(Ready); ok {
			c.onReadyLocked(s, r)
			return
		}
		c.log.Warn(EventBeforeReady, "frame_type", f.FrameType())
		return
	}
	if _, ok := f.(Ready); ok {
		return // a repeated ready changes nothing
	}
	c.noteTurnFrameLocked(f)
	if ef, ok := f.(ErrorFrame); ok {
		// The backend's text reaches the log and the screen: never the
		// key, should it echo it.
		ef.Message = transport.RedactKey(ef.Message, c.cfg.Key())
		f = ef
	}
	if e := Event(f); e != nil {
		h := c.handler
		c.disp.PushCounted(func() { h.HandleEvent(e) })
	}
}

// vocabLoop sends the vocabulary whenever it differs from the last one this
// socket carried (hello's, then its own frames). It starts at ready, so a
// change made during the handshake goes out right after ready.
func (s *socket) vocabLoop() {
	c := s.c
	defer c.wg.Done()
	for {
		c.mu.Lock()
		if c.cur != s || s.killed {
			c.mu.Unlock()
			return
		}
		v := c.vocab
		need := !v.Equal(s.vocabSent)
		if need {
			s.vocabSent = v
		}
		conn := s.conn
		c.mu.Unlock()
		if need {
			if err := c.writeFrame(s, conn, VocabularyFrame{Vocabulary: v}, 0); err != nil {
				return
			}
		}
		select {
		case <-s.vocabWake:
		case <-s.dead:
			return
		}
	}
}

// SetVocabulary records what the client renders now. While ready, a
// vocabulary that differs from the last one the socket carried is sent at
// once (in the order of calls, coalescing bursts); during the handshake it
// goes out right after ready; the next hello carries it in any case.
func (c *Client) SetVocabulary(v Vocabulary) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.vocab = v
	if s := c.cur; s != nil && s.ready {
		select {
		case s.vocabWake <- struct{}{}:
		default:
		}
	}
}
