package pushserver

import (
	"crypto/subtle"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"yui/transport/push"
)

// Close codes the backend uses.
const (
	CodeUnauthorized = 4401 // wrong key, or a hello without chat_id
	CodeReplaced     = 4409 // a newer hello for the same chat took over
	CodeTooBig       = websocket.StatusMessageTooBig
)

var (
	// ErrNotConnected: the chat has no ready socket and the frame is not one
	// the server holds for an absent client.
	ErrNotConnected = errors.New("pushserver: chat not connected")
	// ErrNotDeclared: the client did not declare the tool in its hello.
	ErrNotDeclared = errors.New("pushserver: tool not declared by the client")
	// ErrClosed: the server was closed.
	ErrClosed = errors.New("pushserver: server closed")
)

// Hooks are the agent's view of inbound frames, per chat. Every field is
// optional. They run on the connection's read goroutine; see the package doc.
type Hooks struct {
	Connected    func(chatID string, hello push.Hello)
	Disconnected func(chatID string, code int)
	Turn         func(chatID string, t push.Turn)
	Stop         func(chatID string, turnIDs []string)
	Reset        func(chatID string)
	Playback     func(chatID string, p push.Playback)
	Vocabulary   func(chatID string, v push.Vocabulary)
}

// Config configures a Server.
type Config struct {
	// Key is the chat API key clients must send; CheckKey, when set,
	// decides instead.
	Key      string
	CheckKey func(key, chatID string) bool
	// MaxTurnBytes, when > 0, is stated in ready (and says images are
	// accepted); turn frames and image tool_results may be that large.
	MaxTurnBytes int
	// Hooks receive inbound frames.
	Hooks Hooks
	// Logger receives the server's log lines; nil discards them.
	Logger *slog.Logger
	// ToolWait gives the adapter's wait per tool; nil uses push.BackendToolWait.
	ToolWait func(name string) time.Duration
	// HelloWait bounds the wait for the first frame; 0 uses push.HelloWait.
	HelloWait time.Duration
	// HoldLimit caps the frames held per absent chat (oldest dropped); 0 means 1000.
	HoldLimit int
	// FailureLine renders a turn's failure for a client that does not
	// accept error frames; nil uses a fixed English line.
	FailureLine func(message string) string
	// Source names the backend in renders the server makes itself.
	Source string
	// AcceptOptions are passed to websocket.Accept (origin checks).
	AcceptOptions *websocket.AcceptOptions
}

// Server is the backend side of the push transport. All methods are safe
// for concurrent use.
type Server struct {
	cfg Config
	log *slog.Logger

	mu     sync.Mutex
	chats  map[string]*chat
	conns  map[*sconn]struct{}
	nextID uint64
	closed bool
	wg     sync.WaitGroup
}

// New returns a Server.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ToolWait == nil {
		cfg.ToolWait = push.BackendToolWait
	}
	if cfg.HelloWait <= 0 {
		cfg.HelloWait = push.HelloWait
	}
	if cfg.HoldLimit <= 0 {
		cfg.HoldLimit = 1000
	}
	if cfg.FailureLine == nil {
		cfg.FailureLine = func(string) string { return "Sorry, something went wrong on my side." }
	}
	if cfg.Source == "" {
		cfg.Source = "pushserver"
	}
	return &Server{cfg: cfg, log: cfg.Logger, chats: make(map[string]*chat), conns: make(map[*sconn]struct{})}
}

// turnCap is the largest turn frame (and image tool_result) accepted.
func (s *Server) turnCap() int {
	if s.cfg.MaxTurnBytes > 0 {
		return s.cfg.MaxTurnBytes
	}
	return push.MaxFrameBytes
}

func (s *Server) keyOK(key, chatID string) bool {
	if s.cfg.CheckKey != nil {
		return s.cfg.CheckKey(key, chatID)
	}
	return subtle.ConstantTimeCompare([]byte(key), []byte(s.cfg.Key)) == 1
}

// ServeHTTP upgrades the request and runs the socket until it ends.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "closed", http.StatusServiceUnavailable)
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	conn, err := websocket.Accept(w, r, s.cfg.AcceptOptions)
	if err != nil {
		s.log.Warn("ws_accept_failed", "error", err.Error())
		return
	}
	limit := max(s.turnCap(), push.MaxFrameBytes)
	conn.SetReadLimit(int64(limit))
	sc := newSconn(s, conn)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = conn.Close(websocket.StatusGoingAway, "server closed")
		return
	}
	s.conns[sc] = struct{}{}
	s.mu.Unlock()
	sc.serve()
	s.mu.Lock()
	delete(s.conns, sc)
	s.mu.Unlock()
}

// Close closes every socket with 1001, answers every pending tool call
// "error: client disconnected" and waits for the connections to end.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	conns := make([]*sconn, 0, len(s.conns))
	for sc := range s.conns {
		conns = append(conns, sc)
	}
	s.mu.Unlock()
	for _, sc := range conns {
		sc.close(websocket.StatusGoingAway, "server closed")
	}
	s.wg.Wait()
	return nil
}

// Connected reports whether the chat has a ready socket.
func (s *Server) Connected(chatID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.chats[chatID]
	return ch != nil && ch.conn != nil
}

// Hello returns the latest hello of the chat's current socket.
func (s *Server) Hello(chatID string) (push.Hello, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.chats[chatID]
	if ch == nil || ch.conn == nil {
		return push.Hello{}, false
	}
	sc := ch.conn
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.hello, true
}

// Kick closes the chat's socket with code and reason (for tests and probes).
func (s *Server) Kick(chatID string, code websocket.StatusCode, reason string) bool {
	s.mu.Lock()
	ch := s.chats[chatID]
	var sc *sconn
	if ch != nil {
		sc = ch.conn
	}
	s.mu.Unlock()
	if sc == nil {
		return false
	}
	sc.close(code, reason)
	return true
}

// chatLocked returns the chat's state, creating it. Needs s.mu.
func (s *Server) chatLocked(id string) *chat {
	ch := s.chats[id]
	if ch == nil {
		ch = newChat(id)
		s.chats[id] = ch
	}
	return ch
}
