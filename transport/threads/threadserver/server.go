package threadserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// AgentInfo is one agent the server lists (GET /api/agents).
type AgentInfo struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// Config is what a Server is made from.
type Config struct {
	// Key is the API key every /api route wants as a Bearer token (the
	// stream: a ticket, or the header); "" wants none.
	Key string
	// Agents are the agents listed; a thread can be made for these ids
	// only. Empty lists one, "yui-test".
	Agents []AgentInfo
	// Agent writes the replies; nil says "ok".
	Agent Agent
	// Behaviour is the runtime the server plays.
	Behaviour Behaviour
	Logger    *slog.Logger
	// Now is the clock of created_at, timestamps and tickets; nil is
	// time.Now.
	Now func() time.Time
}

// Stats count what clients did on one thread.
type Stats struct {
	Opens   int // stream upgrades accepted
	Refused int // stream upgrades refused
	Reads   int // GET …/messages
	Posts   int // POST …/messages
	Stops   int // POST …/stop
	Pings   int // stream_ping and ping received
	Tickets int // tickets minted for the thread's stream
	Sockets int // stream sockets open now
	Running bool
	Queued  int
}

// Server is the runtime. See the package documentation.
type Server struct {
	cfg Config
	log *slog.Logger
	mux *http.ServeMux
	ctx context.Context
	end context.CancelFunc
	wg  sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	key     string
	threads map[string]*thread
	tickets map[string]ticket
	changed chan struct{}
	seq     int
	// refuseNext refuses that many upgrades more, as a refused credential.
	refuseNext int
	// lastQuery is the query of the last accepted upgrade (the ticket
	// left out).
	lastQuery string
	keyChecks int
	mute      bool // heartbeats go unanswered
}

type ticket struct {
	path    string
	expires time.Time
}

// New makes a Server.
func New(cfg Config) *Server {
	if len(cfg.Agents) == 0 {
		cfg.Agents = []AgentInfo{{ID: "yui-test", Name: "yui-test", Title: "Yui test agent"}}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Agent == nil {
		cfg.Agent = func(r *Reply) { r.Say("ok") }
	}
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, log: lg, ctx: ctx, end: cancel, key: cfg.Key, threads: map[string]*thread{},
		tickets: map[string]ticket{}, changed: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/auth/me", s.me)
	mux.HandleFunc("POST /api/auth/websocket-ticket", s.ticket)
	mux.HandleFunc("GET /api/agents", s.agents)
	mux.HandleFunc("POST /api/threads", s.createThread)
	mux.HandleFunc("GET /api/threads/{id}", s.getThread)
	mux.HandleFunc("DELETE /api/threads/{id}", s.deleteThread)
	mux.HandleFunc("GET /api/threads/{id}/messages", s.messages)
	mux.HandleFunc("POST /api/threads/{id}/messages", s.send)
	mux.HandleFunc("POST /api/threads/{id}/stop", s.stop)
	mux.HandleFunc("GET /api/threads/{id}/stream", s.stream)
	s.mux = mux
	return s
}

// ServeHTTP serves the routes under /api.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		writeError(w, s.cfg.Behaviour, http.StatusServiceUnavailable, "unavailable", "the runtime is closing")
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Close ends every run and socket and waits for the server's goroutines.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.end()
	for _, th := range s.threads {
		if th.run != nil {
			th.run.cancel()
		}
		for k := range th.socks {
			k.kill()
		}
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// Changed is closed at the next change of any thread (a test waits on it
// and looks again).
func (s *Server) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Wait returns when cond (called under no lock) holds, or ctx ends.
func (s *Server) Wait(ctx context.Context, cond func() bool) error {
	for {
		ch := s.Changed()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// SetKey changes the key the server wants (a key revoked).
func (s *Server) SetKey(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.key = key
}

// RefuseUpgrades refuses the next n stream upgrades as a refused
// credential would be (the Behaviour's Refusal), whatever they carry.
func (s *Server) RefuseUpgrades(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuseNext = n
}

// KeyChecks counts GET /api/auth/me.
func (s *Server) KeyChecks() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keyChecks
}

// MuteHeartbeats leaves stream_ping and ping unanswered (a dead socket).
func (s *Server) MuteHeartbeats(mute bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mute = mute
}

// LastQuery is the query of the last accepted upgrade, its ticket left out.
func (s *Server) LastQuery() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastQuery
}

// Stats are the counts of a thread (zero for an unknown one).
func (s *Server) Stats(id string) Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.threads[id]
	if th == nil {
		return Stats{}
	}
	st := th.stats
	st.Sockets = len(th.socks)
	st.Running = th.run != nil
	st.Queued = len(th.queue)
	return st
}

// Threads are the ids of the threads that exist, in no order.
func (s *Server) Threads() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for id, th := range s.threads {
		if !th.deleted {
			out = append(out, id)
		}
	}
	return out
}

// Contents are the contents of a thread's messages of a role, oldest
// first ("" for null).
func (s *Server) Contents(id, role string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.threads[id]
	if th == nil {
		return nil
	}
	var out []string
	for _, m := range th.msgs {
		if m.Role == role {
			c := ""
			if m.Content != nil {
				c = *m.Content
			}
			out = append(out, c)
		}
	}
	return out
}

// Attachments are the attachments of a thread's user messages, oldest
// first, as posted.
func (s *Server) Attachments(id string) [][]map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.threads[id]
	if th == nil {
		return nil
	}
	var out [][]map[string]any
	for _, m := range th.msgs {
		if m.Role == "user" {
			out = append(out, m.posted)
		}
	}
	return out
}

// CreateThread makes a thread for agent directly (tests).
func (s *Server) CreateThread(agent string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newThreadLocked(agent).id
}

func (s *Server) newThreadLocked(agent string) *thread {
	id := newID()
	th := &thread{id: id, agent: agent, socks: map[*sock]bool{}, created: s.cfg.Now()}
	s.threads[id] = th
	s.notifyLocked()
	return th
}

// Delete deletes a thread as DELETE /api/threads/<id> does.
func (s *Server) Delete(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deleteLocked(id)
}

// DropStreams closes the thread's sockets at once, without a close frame
// (a network drop: the client sees 1006).
func (s *Server) DropStreams(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if th := s.threads[id]; th != nil {
		for k := range th.socks {
			k.kill()
			delete(th.socks, k)
		}
		s.notifyLocked()
	}
}

// Inject starts a run with no user message (a scheduled or tool-triggered
// reply): agent writes it. It runs after what is queued.
func (s *Server) Inject(id string, agent Agent) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.threads[id]
	if th == nil || th.deleted {
		return false
	}
	th.queue = append(th.queue, queued{agent: agent})
	s.kickLocked(th)
	s.notifyLocked()
	return true
}

func newID() string {
	b := make([]byte, 16)
	rand.Read(b)
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
