package pushserver

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/coder/websocket"

	"yui/transport/push"
)

// sconn is one client socket on the server.
type sconn struct {
	s      *Server
	conn   *websocket.Conn
	chatID string
	hello  push.Hello          // guarded by mu (vocabulary updates it)
	tools  map[string]struct{} // declared in hello; fixed for the socket

	mu    sync.Mutex
	queue [][]byte
	wake  chan struct{}
	dead  chan struct{}
	once  sync.Once
}

func newSconn(s *Server, conn *websocket.Conn) *sconn {
	return &sconn{s: s, conn: conn, wake: make(chan struct{}, 1), dead: make(chan struct{})}
}

// close closes the socket once with a close handshake.
func (sc *sconn) close(code websocket.StatusCode, reason string) {
	sc.once.Do(func() {
		close(sc.dead)
		go func() { _ = sc.conn.Close(code, reason) }()
	})
}

// enqueue queues an encoded frame for the writer, in order.
func (sc *sconn) enqueue(b []byte) {
	sc.mu.Lock()
	sc.queue = append(sc.queue, b)
	sc.mu.Unlock()
	select {
	case sc.wake <- struct{}{}:
	default:
	}
}

func (sc *sconn) writeLoop() {
	for {
		sc.mu.Lock()
		batch := sc.queue
		sc.queue = nil
		sc.mu.Unlock()
		for _, b := range batch {
			if err := sc.conn.Write(context.Background(), websocket.MessageText, b); err != nil {
				return
			}
		}
		select {
		case <-sc.wake:
		case <-sc.dead:
			return
		}
	}
}

// serve runs the socket: hello, ready, then the read loop.
func (sc *sconn) serve() {
	s := sc.s
	var wwg sync.WaitGroup
	defer wwg.Wait()
	defer sc.close(websocket.StatusNormalClosure, "")

	helloTimer := time.AfterFunc(s.cfg.HelloWait, func() {
		s.log.Warn("hello_timeout")
		sc.close(websocket.StatusPolicyViolation, "no hello")
	})
	typ, b, err := sc.conn.Read(context.Background())
	helloTimer.Stop()
	if err != nil {
		return
	}
	f, derr := push.DecodeOutbound(b)
	h, ok := f.(push.Hello)
	if typ != websocket.MessageText || derr != nil || !ok {
		s.log.Warn("hello_rejected", "reason", "first frame is not a hello")
		sc.close(websocket.StatusPolicyViolation, "expected hello")
		return
	}
	if h.ChatID == "" || !s.keyOK(h.Key, h.ChatID) {
		reason := "wrong key"
		if h.ChatID == "" {
			reason = "missing chat_id"
		}
		s.log.Warn("hello_rejected", "reason", reason, "chat_id", h.ChatID)
		sc.close(CodeUnauthorized, reason)
		return
	}
	sc.chatID, sc.hello = h.ChatID, h
	sc.tools = make(map[string]struct{}, len(h.Tools))
	for _, t := range h.Tools {
		sc.tools[t.Function.Name] = struct{}{}
	}

	wwg.Add(1)
	go func() { defer wwg.Done(); sc.writeLoop() }()

	s.mu.Lock()
	ch := s.chatLocked(h.ChatID)
	old := ch.conn
	ch.conn = sc
	ch.accepts = h.Accepts
	if old != nil {
		ch.answerAllLocked(ResultClientDisconnected, nil)
	}
	sc.enqueue(mustEncode(push.Ready{ChatID: h.ChatID, MaxTurnBytes: s.cfg.MaxTurnBytes}))
	sc.enqueue(mustEncode(push.Delegations{Items: ch.delegations}))
	for _, hf := range ch.held {
		sc.enqueue(mustEncode(s.adaptLocked(ch, hf)))
	}
	ch.held = nil
	s.mu.Unlock()
	if old != nil {
		s.log.Info("socket_replaced", "chat_id", h.ChatID)
		old.close(CodeReplaced, "replaced by a newer socket")
	}
	s.log.Info("ws_ready", "chat_id", h.ChatID)
	if s.cfg.Hooks.Connected != nil {
		s.cfg.Hooks.Connected(h.ChatID, h)
	}

	code := sc.readLoop()

	s.mu.Lock()
	if ch.conn == sc {
		ch.conn = nil
		ch.answerAllLocked(ResultClientDisconnected, nil)
	}
	s.mu.Unlock()
	s.log.Info("ws_close", "chat_id", h.ChatID, "code", code)
	if s.cfg.Hooks.Disconnected != nil {
		s.cfg.Hooks.Disconnected(h.ChatID, code)
	}
}

// readLoop reads client frames until the socket ends and returns the close code.
func (sc *sconn) readLoop() int {
	s := sc.s
	hooks := s.cfg.Hooks
	for {
		typ, b, err := sc.conn.Read(context.Background())
		if err != nil {
			if errors.Is(err, websocket.ErrMessageTooBig) {
				s.log.Warn("frame_oversize", "direction", "in", "chat_id", sc.chatID)
			}
			return int(websocket.CloseStatus(err))
		}
		if typ != websocket.MessageText {
			s.log.Warn("frame_parse_failed", "chat_id", sc.chatID, "error", "binary message")
			continue
		}
		f, err := push.DecodeOutbound(b)
		if err != nil {
			var de *push.DecodeError
			errors.As(err, &de)
			s.log.Warn("frame_rejected", "chat_id", sc.chatID, "error", err.Error())
			if de != nil && de.Kind != push.Unknown && len(b) > push.MaxFrameBytes {
				sc.close(CodeTooBig, "frame too big")
				return int(CodeTooBig)
			}
			continue
		}
		if limit := push.FrameLimit(f, s.cfg.MaxTurnBytes); len(b) > limit {
			s.log.Warn("frame_oversize", "direction", "in", "chat_id", sc.chatID, "frame_type", f.FrameType(), "bytes", len(b), "limit", limit)
			sc.close(CodeTooBig, "frame too big")
			return int(CodeTooBig)
		}
		switch f := f.(type) {
		case push.Turn:
			if hooks.Turn != nil {
				hooks.Turn(sc.chatID, f)
			}
		case push.Stop:
			s.stopTurns(sc.chatID, f.TurnIDs)
			if hooks.Stop != nil {
				hooks.Stop(sc.chatID, f.TurnIDs)
			}
		case push.Reset:
			s.reset(sc.chatID)
			if hooks.Reset != nil {
				hooks.Reset(sc.chatID)
			}
		case push.Playback:
			if hooks.Playback != nil {
				hooks.Playback(sc.chatID, f)
			}
		case push.VocabularyFrame:
			sc.mu.Lock()
			sc.hello.Vocabulary = f.Vocabulary
			sc.mu.Unlock()
			if hooks.Vocabulary != nil {
				hooks.Vocabulary(sc.chatID, f.Vocabulary)
			}
		case push.ToolResult:
			s.toolResult(sc.chatID, f)
		case push.Hello:
			s.log.Warn("hello_repeated", "chat_id", sc.chatID)
		}
	}
}

func mustEncode(f push.Frame) []byte {
	b, err := push.Encode(f)
	if err != nil {
		panic(err) // server frames are built from typed values and always encode
	}
	return b
}
