package view

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Peer identifies one connection.
type Peer struct {
	ID     uint64
	Role   string
	Preset string
}

// Config configures a Server.
type Config struct {
	// Origins are further browser origins allowed to connect, beside
	// WindowOrigin and the server's own http origin (normally none).
	Origins []string
	// Pages, when set, are served as static files under / (the built web
	// UI), so a browser can load the pages straight from the core.
	Pages fs.FS
	// Logger receives view_connect, view_disconnect and view_refused lines.
	Logger *slog.Logger
	// OnMessage receives every message a connection sends, on that
	// connection's read goroutine.
	OnMessage func(Peer, Message)
	// OnConnect runs after a connection is registered and, for pages, after
	// the sticky messages were queued to it.
	OnConnect func(Peer)
	// OnDisconnect runs once when a connection ends.
	OnDisconnect func(Peer)
	// Routes are further HTTP routes by pattern (routes.go), e.g. the
	// VRM look's model bytes for a pet page.
	Routes map[string]Route
}

// Server is the core's view-protocol endpoint. See the package doc.
type Server struct {
	cfg Config
	log *slog.Logger

	mu     sync.Mutex
	nextID uint64
	conns  map[uint64]*conn
	sticky map[channel]map[string]stickyMsg // page channel -> topic -> message
	seq    uint64
	closed bool

	grants grants

	ln  net.Listener
	srv *http.Server
}

// channel is the pages one sticky state goes to: the pet pages of one
// preset, or the settings page (preset "").
type channel struct{ role, preset string }

type stickyMsg struct {
	seq uint64
	msg Message
}

type conn struct {
	peer   Peer
	ws     *websocket.Conn
	out    chan []byte
	queued atomic.Int64 // bytes in out
	done   chan struct{}
	once   sync.Once
	// cancel ends the context of the connection's writes: a write blocked
	// on a page that stopped reading returns at once and the connection
	// closes.
	cancel context.CancelFunc
	log    *slog.Logger
}

// Per-connection write queue bounds. A page that falls this far behind,
// or whose one message takes longer than WriteTimeout to go out, is
// dropped (closed with CloseTooSlow); the page reconnects and gets the
// sticky state again. Publishing never waits for a page.
const (
	sendQueue      = 512     // messages
	sendQueueBytes = 8 << 20 // bytes
	// WriteTimeout bounds one message's write to a page.
	WriteTimeout = 5 * time.Second
	// CloseTooSlow is the close code of a page dropped for falling behind.
	CloseTooSlow websocket.StatusCode = 4408
)

// NewServer returns a Server; call Listen to start it.
func NewServer(cfg Config) *Server {
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	return &Server{cfg: cfg, log: lg, conns: map[uint64]*conn{}, sticky: map[channel]map[string]stickyMsg{}}
}

// Listen binds 127.0.0.1 on a random port and serves in the background.
func (s *Server) Listen() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("view: listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/view", s.serveView)
	for pattern, rt := range s.cfg.Routes {
		mux.Handle(pattern, s.granted(rt))
	}
	if s.cfg.Pages != nil {
		mux.Handle("/", http.FileServerFS(s.cfg.Pages))
	}
	s.ln = ln
	s.srv = &http.Server{Handler: s.guardHost(mux), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return nil
}

// Addr returns the listening address, host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL returns the WebSocket URL windows dial, without the token.
func (s *Server) URL() string { return "ws://" + s.Addr() + "/view" }

// Publish makes m the sticky message of topic for preset's pet pages and
// sends it to every one now connected.
func (s *Server) Publish(preset, topic string, m Message) {
	s.publish(channel{RolePet, preset}, topic, m)
}

// PublishDelta makes whole the sticky message of topic for preset's pet
// pages (what a page that connects later gets) and sends live, the change
// since the last message, to every page now connected. The two go out under
// one lock, so a page sees either the whole message or every change after
// it, never a gap.
func (s *Server) PublishDelta(preset, topic string, whole, live Message) {
	ch := channel{RolePet, preset}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	if s.sticky[ch] == nil {
		s.sticky[ch] = map[string]stickyMsg{}
	}
	s.sticky[ch][topic] = stickyMsg{seq: s.seq, msg: whole}
	for _, c := range s.matching(func(p Peer) bool { return p.Preset == ch.preset && p.Role == ch.role }) {
		c.send(live.Body)
	}
}

// PublishSettings makes m the sticky message of topic for the settings
// page and sends it to it if connected.
func (s *Server) PublishSettings(topic string, m Message) {
	s.publish(channel{RoleSettings, ""}, topic, m)
}

func (s *Server) publish(ch channel, topic string, m Message) {
	s.mu.Lock()
	s.seq++
	if s.sticky[ch] == nil {
		s.sticky[ch] = map[string]stickyMsg{}
	}
	s.sticky[ch][topic] = stickyMsg{seq: s.seq, msg: m}
	// Sending under the lock keeps every page's order equal to the
	// publication order; send never blocks.
	for _, c := range s.matching(func(p Peer) bool { return p.Preset == ch.preset && mirrors(p.Role, ch.role) }) {
		c.send(m.Body)
	}
	s.mu.Unlock()
}

// mirrors reports whether a peer of role gets what is published on a
// channel of chRole: its own, and a message page the pet page's of its
// preset (spec: a message window mirrors the pet window of its preset).
func mirrors(role, chRole string) bool {
	return role == chRole || (role == RoleMessage && chRole == RolePet)
}

// Forget drops the sticky state of preset's pet pages (a preset that was
// removed or disabled), so a later pet of that id starts clean.
func (s *Server) Forget(preset string) {
	s.mu.Lock()
	delete(s.sticky, channel{RolePet, preset})
	s.mu.Unlock()
}

// Sticky returns the current sticky message of topic for preset's pet
// pages.
func (s *Server) Sticky(preset, topic string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sm, ok := s.sticky[channel{RolePet, preset}][topic]
	return sm.msg, ok
}

// Disconnect closes every connection of role for preset (normal
// closure). A shell whose connection ends quits its window.
func (s *Server) Disconnect(role, preset string) {
	s.mu.Lock()
	cs := s.matching(func(p Peer) bool { return p.Preset == preset && p.Role == role })
	s.mu.Unlock()
	for _, c := range cs {
		c.ws.Close(websocket.StatusNormalClosure, "window closed by the core")
	}
}

// Send sends m, not sticky, to every connection of role for preset.
func (s *Server) Send(role, preset string, m Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.matching(func(p Peer) bool { return p.Preset == preset && p.Role == role }) {
		c.send(m.Body)
	}
}

// Close ends every connection with 1001 (going away) and stops listening.
// Window processes exit when their shell connection ends.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	all := s.matching(func(Peer) bool { return true })
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range all {
		wg.Go(func() { c.ws.Close(websocket.StatusGoingAway, "core exiting") })
	}
	wg.Wait()
	if s.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		s.srv.Shutdown(ctx)
	}
}

// matching must be called with s.mu held.
func (s *Server) matching(pred func(Peer) bool) []*conn {
	var out []*conn
	for _, c := range s.conns {
		if pred(c.peer) {
			out = append(out, c)
		}
	}
	return out
}

func (s *Server) serveView(w http.ResponseWriter, r *http.Request) {
	g, ok := s.admit(w, r)
	if !ok {
		return
	}
	role, preset := g.Role, g.Preset
	// admit checked the Origin header against the app's own origins, so
	// the library's same-host check (which knows no wails://) is off.
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	ws.SetReadLimit(1 << 20)

	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ws.Close(websocket.StatusGoingAway, "core exiting")
		return
	}
	// Checked again under the lock Revoke takes after forgetting a
	// token, so a connection admitted just before a Revoke is either
	// closed by it or refused here.
	if again, ok := s.grants.lookup(requestToken(r)); !ok || again != g {
		s.mu.Unlock()
		ws.Close(websocket.StatusPolicyViolation, "view: token revoked")
		return
	}
	s.nextID++
	wctx, cancel := context.WithCancel(context.Background())
	c := &conn{peer: Peer{ID: s.nextID, Role: role, Preset: preset}, ws: ws, out: make(chan []byte, sendQueue),
		done: make(chan struct{}), cancel: cancel, log: s.log}
	s.conns[c.peer.ID] = c
	if role == RolePet || role == RoleSettings || role == RoleMessage {
		var replay []stickyMsg
		for ch, topics := range s.sticky {
			if ch.preset != preset || !mirrors(role, ch.role) {
				continue
			}
			for _, sm := range topics {
				replay = append(replay, sm)
			}
		}
		sort.Slice(replay, func(i, j int) bool { return replay[i].seq < replay[j].seq })
		for _, sm := range replay {
			c.send(sm.msg.Body)
		}
	}
	s.mu.Unlock()
	s.log.Info("view_connect", "role", role, "preset", preset, "peer", c.peer.ID)

	ctx := r.Context()
	go c.writeLoop(wctx)
	if s.cfg.OnConnect != nil {
		s.cfg.OnConnect(c.peer)
	}
	s.readLoop(ctx, c)

	c.stop()
	cancel()
	s.mu.Lock()
	delete(s.conns, c.peer.ID)
	s.mu.Unlock()
	s.log.Info("view_disconnect", "role", role, "preset", preset, "peer", c.peer.ID)
	if s.cfg.OnDisconnect != nil {
		s.cfg.OnDisconnect(c.peer)
	}
}

func (s *Server) readLoop(ctx context.Context, c *conn) {
	for {
		typ, b, err := c.ws.Read(ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			s.log.Warn("view_malformed", "peer", c.peer.ID, "reason", "binary frame")
			continue
		}
		m, err := Decode(b)
		if err != nil {
			s.log.Warn("view_malformed", "peer", c.peer.ID, "err", err.Error())
			continue
		}
		if s.cfg.OnMessage != nil {
			s.cfg.OnMessage(c.peer, m)
		}
	}
}
