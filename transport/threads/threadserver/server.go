package threadserver

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
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

// ---- HTTP ----

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers an error as the behaviour's runtime does.
func writeError(w http.ResponseWriter, b Behaviour, status int, code, msg string) {
	if b.Refusal == RefuseObject {
		writeJSON(w, status, map[string]any{"error": map[string]string{"code": code, "message": msg}})
		return
	}
	writeJSON(w, status, map[string]string{"error": msg})
}

func (s *Server) keyOK(r *http.Request) bool {
	s.mu.Lock()
	key := s.key
	s.mu.Unlock()
	if key == "" {
		return true
	}
	got, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return subtle.ConstantTimeCompare([]byte(got), []byte(key)) == 1
}

// authed answers 401 unless the request carries the key.
func (s *Server) authed(w http.ResponseWriter, r *http.Request) bool {
	if s.keyOK(r) {
		return true
	}
	writeError(w, s.cfg.Behaviour, http.StatusUnauthorized, "unauthorized", "Unauthorized")
	return false
}

func (s *Server) me(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.keyChecks++
	s.notifyLocked()
	s.mu.Unlock()
	if !s.authed(w, r) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"user": map[string]any{"id": 1, "username": "yui", "role": "admin"}, "authType": "api_key"})
}

func (s *Server) agents(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"agents": s.cfg.Agents})
}

// pathnamePattern is a normalized path beneath /api/.
var pathnamePattern = regexp.MustCompile(`^/api(/[^/?#]+)+$`)

// ticketPath reports whether pathname may get a ticket (thread-stream.txt,
// "Connecting").
func ticketPath(p string) bool {
	if !pathnamePattern.MatchString(p) {
		return false
	}
	low := strings.ToLower(p)
	for _, bad := range []string{"%2e", "%2f", "%5c"} {
		if strings.Contains(low, bad) {
			return false
		}
	}
	for _, seg := range strings.Split(p, "/")[1:] {
		if seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

func (s *Server) ticket(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	var body struct {
		Pathname string `json:"pathname"`
	}
	if json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&body) != nil || !ticketPath(body.Pathname) {
		writeError(w, s.cfg.Behaviour, http.StatusBadRequest, "bad_request", "pathname must be a normalized /api/* path.")
		return
	}
	b := make([]byte, 32)
	rand.Read(b)
	tk := hex.EncodeToString(b)
	s.mu.Lock()
	now := s.cfg.Now()
	for k, v := range s.tickets {
		if now.After(v.expires) {
			delete(s.tickets, k)
		}
	}
	if len(s.tickets) < 4096 {
		s.tickets[tk] = ticket{path: body.Pathname, expires: now.Add(30 * time.Second)}
	}
	s.mu.Unlock()
	s.mu.Lock()
	for _, th := range s.threads {
		if body.Pathname == "/api/threads/"+th.id+"/stream" {
			th.stats.Tickets++
			s.notifyLocked()
		}
	}
	s.mu.Unlock()
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"ticket": tk, "expires_in": 30})
}

func (s *Server) agentKnown(id string) bool {
	for _, a := range s.cfg.Agents {
		if a.ID == id {
			return true
		}
	}
	return false
}

func (s *Server) createThread(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	var body struct {
		AgentID string `json:"agent_id"`
	}
	_ = json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&body)
	switch {
	case body.AgentID == "":
		writeError(w, s.cfg.Behaviour, http.StatusBadRequest, "bad_request", "agent_id is required")
		return
	case !s.agentKnown(body.AgentID):
		writeError(w, s.cfg.Behaviour, http.StatusNotFound, "not_found", "Agent not found: "+body.AgentID)
		return
	}
	s.mu.Lock()
	th := s.newThreadLocked(body.AgentID)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"threadId": th.id, "agent_id": body.AgentID})
}

// live is the thread of the request's {id}, or a 404 answered.
func (s *Server) live(w http.ResponseWriter, r *http.Request) *thread {
	id := r.PathValue("id")
	s.mu.Lock()
	th := s.threads[id]
	s.mu.Unlock()
	if th == nil || th.deleted {
		writeError(w, s.cfg.Behaviour, http.StatusNotFound, "not_found", "Thread not found: "+id)
		return nil
	}
	return th
}

func (s *Server) getThread(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	th := s.live(w, r)
	if th == nil {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"thread": map[string]any{"id": th.id, "agent_id": th.agent, "terminated": nil,
		"created_at": th.created.Unix()}, "agent": map[string]any{"id": th.agent}, "stats": map[string]any{}})
}

func (s *Server) deleteThread(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	if !s.Delete(r.PathValue("id")) {
		writeError(w, s.cfg.Behaviour, http.StatusNotFound, "not_found", "Thread not found")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true})
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	th := s.live(w, r)
	if th == nil {
		return
	}
	limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil || limit <= 0 {
		limit = 100
	}
	s.mu.Lock()
	th.stats.Reads++
	var list []map[string]any
	for _, m := range th.msgs {
		list = append(list, m.full())
	}
	total := len(list)
	if len(list) > limit {
		list = list[len(list)-limit:]
	}
	if list == nil {
		list = []map[string]any{}
	}
	s.notifyLocked()
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"messages": list, "total": total, "hasMore": total > len(list)})
}

// maxPost bounds a posted message.
const maxPost = 32 << 20

func (s *Server) send(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	th := s.live(w, r)
	if th == nil {
		return
	}
	var body struct {
		Role        string           `json:"role"`
		Content     string           `json:"content"`
		Attachments []map[string]any `json:"attachments"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, maxPost)).Decode(&body); err != nil {
		writeError(w, s.cfg.Behaviour, http.StatusBadRequest, "bad_request", "unreadable body")
		return
	}
	if strings.TrimSpace(body.Content) == "" && len(body.Attachments) == 0 {
		writeError(w, s.cfg.Behaviour, http.StatusBadRequest, "bad_request", "Message content or attachments required")
		return
	}
	if body.Role == "" {
		body.Role = "user"
	}
	s.mu.Lock()
	if th.deleted {
		s.mu.Unlock()
		writeError(w, s.cfg.Behaviour, http.StatusNotFound, "not_found", "Thread not found: "+th.id)
		return
	}
	th.stats.Posts++
	m := s.newMsgLocked(th, body.Role, &body.Content)
	m.posted = body.Attachments
	for _, a := range body.Attachments {
		ref := map[string]any{"id": newID(), "type": "file", "name": a["name"], "mimeType": a["mimeType"]}
		if d, ok := a["data"].(string); ok {
			ref["size"] = len(d) / 4 * 3
		}
		m.Attachments = append(m.Attachments, ref)
	}
	pending := "pending"
	m.Status = &pending
	m.Metadata = map[string]any{"queued": true, "queue_status": "queued"}
	// The pending record goes out before the answer, as the runtime's
	// does.
	if s.cfg.Behaviour.FullRecords {
		s.broadcastLocked(th, messageFrame(m, m.full()))
	} else {
		s.broadcastLocked(th, messageFrame(m, map[string]any{"id": m.ID, "role": m.Role, "content": m.Content,
			"attachments": m.attachments(), "created_at": m.CreatedAt, "status": "pending", "depth": 0, "silent": false,
			"metadata": m.Metadata}))
	}
	th.queue = append(th.queue, queued{user: m})
	s.mu.Unlock()
	writeJSON(w, http.StatusAccepted, map[string]any{"status": "queued", "messageId": m.ID,
		"message": "Message queued for processing. Connect via WebSocket for real-time updates."})
	s.mu.Lock()
	s.kickLocked(th)
	s.notifyLocked()
	s.mu.Unlock()
}

func (s *Server) stop(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	th := s.live(w, r)
	if th == nil {
		return
	}
	s.mu.Lock()
	th.stats.Stops++
	s.stopLocked(th)
	s.notifyLocked()
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"status": "stopped", "message": "Thread execution stopped"})
}
