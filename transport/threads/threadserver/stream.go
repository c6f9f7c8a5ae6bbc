package threadserver

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// sockQueue bounds what waits to be written to one socket.
const sockQueue = 4096

// sock is one stream socket.
type sock struct {
	conn      *websocket.Conn
	out       chan []byte
	done      chan struct{}
	reasoning bool
	depth     int // the deepest message depth it takes
	once      sync.Once

	mu        sync.Mutex
	spokeOnce bool
	closeCode websocket.StatusCode
	closeWhy  string
}

func (k *sock) spoke() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.spokeOnce
}

// kill closes the connection at once, with no close frame.
func (k *sock) kill() {
	k.once.Do(func() { close(k.done) })
	if c := k.connNow(); c != nil {
		_ = c.CloseNow()
	}
}

func (k *sock) connNow() *websocket.Conn {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.conn
}

// closeWith closes with a close frame after what is queued.
func (k *sock) closeWith(code websocket.StatusCode, why string) {
	k.mu.Lock()
	k.closeCode, k.closeWhy = code, why
	k.mu.Unlock()
	k.once.Do(func() { close(k.done) })
}

// send queues b; a socket whose queue is full is closed.
func (k *sock) send(b []byte) {
	select {
	case k.out <- b:
	default:
		k.kill()
	}
}

// broadcastLocked sends a frame to every socket of th (reasoning only to
// sockets that asked for it).
func (s *Server) broadcastLocked(th *thread, v map[string]any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	reasoning := v["type"] == "reasoning_chunk"
	depth, _ := v["depth"].(int)
	for k := range th.socks {
		if (reasoning && !k.reasoning) || depth > k.depth {
			continue
		}
		k.send(b)
	}
}

// refuse answers a refused upgrade as the behaviour says.
func (s *Server) refuse(w http.ResponseWriter, th *thread, status int, code, msg string) {
	s.mu.Lock()
	if th != nil {
		th.stats.Refused++
		s.notifyLocked()
	}
	s.mu.Unlock()
	if s.cfg.Behaviour.Refusal == RefuseDrop {
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				_ = c.Close()
				return
			}
		}
	}
	writeError(w, s.cfg.Behaviour, status, code, msg)
}

// streamAuthed checks the upgrade's credential: a ticket minted for
// exactly this path (used up), or the key as a Bearer header.
func (s *Server) streamAuthed(r *http.Request) bool {
	s.mu.Lock()
	key := s.key
	s.mu.Unlock()
	if key == "" {
		return true
	}
	if tk := r.URL.Query().Get("ticket"); tk != "" {
		s.mu.Lock()
		defer s.mu.Unlock()
		t, ok := s.tickets[tk]
		delete(s.tickets, tk)
		return ok && t.path == r.URL.EscapedPath() && !s.cfg.Now().After(t.expires)
	}
	got, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return subtle.ConstantTimeCompare([]byte(got), []byte(key)) == 1
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.mu.Lock()
	th := s.threads[id]
	s.mu.Unlock()
	s.mu.Lock()
	refuse := s.refuseNext > 0
	if refuse {
		s.refuseNext--
	}
	s.mu.Unlock()
	if refuse || !s.streamAuthed(r) {
		s.refuse(w, th, http.StatusUnauthorized, "unauthorized", "Unauthorized")
		return
	}
	if th == nil || th.deleted {
		s.refuse(w, th, http.StatusNotFound, "not_found", "Thread not found: "+id)
		return
	}
	if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		writeError(w, s.cfg.Behaviour, http.StatusBadRequest, "bad_request", "This endpoint only supports WebSocket connections")
		return
	}
	q := r.URL.Query()
	rq := q.Get("reasoning")
	depth, _ := strconv.Atoi(q.Get("depth"))
	k := &sock{out: make(chan []byte, sockQueue), done: make(chan struct{}), depth: depth,
		reasoning: rq != "" && rq != "0" && rq != "false"}
	shown := url.Values{}
	for key, v := range q {
		if key != "ticket" {
			shown[key] = v
		}
	}
	// The socket takes frames from before the handshake is answered, as
	// the runtime's does: a client that reads the thread at once and
	// posts misses nothing.
	s.mu.Lock()
	if s.closed || th.deleted {
		s.mu.Unlock()
		writeError(w, s.cfg.Behaviour, http.StatusNotFound, "not_found", "Thread not found: "+id)
		return
	}
	th.socks[k] = true
	s.lastQuery = shown.Encode()
	if s.cfg.Behaviour.ThreadStatus {
		// The snapshot is the first frame.
		b, _ := json.Marshal(s.statusFrame(th))
		k.send(b)
	}
	s.mu.Unlock()
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		s.mu.Lock()
		delete(th.socks, k)
		s.mu.Unlock()
		return
	}
	conn.SetReadLimit(64 << 10)
	s.mu.Lock()
	k.mu.Lock()
	k.conn = conn
	k.mu.Unlock()
	th.stats.Opens++
	s.wg.Add(1)
	s.notifyLocked()
	s.mu.Unlock()
	go s.readSock(th, k)
	s.writeSock(th, k)
}

// writeSock writes k's queue until it ends, then closes k.
func (s *Server) writeSock(th *thread, k *sock) {
	defer func() {
		s.mu.Lock()
		delete(th.socks, k)
		s.notifyLocked()
		s.mu.Unlock()
	}()
	ctx := context.Background()
	for {
		select {
		case b := <-k.out:
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := k.conn.Write(wctx, websocket.MessageText, b)
			cancel()
			if err != nil {
				k.kill()
				return
			}
		case <-k.done:
			k.mu.Lock()
			code, why := k.closeCode, k.closeWhy
			k.mu.Unlock()
			if code == 0 {
				_ = k.conn.CloseNow()
				return
			}
			// Flush what is queued, then the close frame.
			for {
				select {
				case b := <-k.out:
					_ = k.conn.Write(ctx, websocket.MessageText, b)
					continue
				default:
				}
				break
			}
			_ = k.conn.Close(code, why)
			return
		}
	}
}

// readSock answers heartbeats and notes that the socket spoke.
func (s *Server) readSock(th *thread, k *sock) {
	defer s.wg.Done()
	for {
		_, b, err := k.conn.Read(context.Background())
		if err != nil {
			k.once.Do(func() { close(k.done) })
			return
		}
		k.mu.Lock()
		k.spokeOnce = true
		k.mu.Unlock()
		p := strings.TrimSpace(string(b))
		if p != "stream_ping" && p != "ping" {
			continue
		}
		s.mu.Lock()
		th.stats.Pings++
		mute := s.mute
		s.notifyLocked()
		s.mu.Unlock()
		switch {
		case mute:
		case p == "stream_ping":
			k.send([]byte("stream_pong"))
		default:
			k.send([]byte("pong"))
		}
	}
}
