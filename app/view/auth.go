package view

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/coder/websocket"
)

// WindowOrigin is the origin of the pages inside a Yui window (Wails serves
// them from wails://wails/ on Linux). The view server accepts WebSocket
// upgrades from it and from its own http origin (a browser loading the
// pages from the core, as the browser tests do).
const WindowOrigin = "wails://wails"

// Grant is what one token admits: one role, for one preset (none for the
// settings page and the settings window's shell).
type Grant struct {
	Role   string
	Preset string
}

func (g Grant) String() string {
	if g.Preset == "" {
		return g.Role
	}
	return g.Role + ":" + g.Preset
}

// check reports whether g is a grant the server can give.
func (g Grant) check() error {
	switch {
	case g.Role != RolePet && g.Role != RoleShell && g.Role != RoleSettings && g.Role != RoleMessage && g.Role != RoleMessageShell:
		return fmt.Errorf("unknown role %q", g.Role)
	case g.Role == RolePet && g.Preset == "":
		return errors.New("a pet page needs a preset")
	case (g.Role == RoleMessage || g.Role == RoleMessageShell) && g.Preset == "":
		return errors.New("a message window needs a preset")
	case g.Role == RoleSettings && g.Preset != "":
		return errors.New("the settings page has no preset")
	}
	return nil
}

// grants holds the tokens the core issued. Safe for concurrent use.
type grants struct {
	mu     sync.Mutex
	tokens map[Grant]string
}

// issue returns g's token, making a fresh one the first time.
func (gs *grants) issue(g Grant) (string, error) {
	if err := g.check(); err != nil {
		return "", fmt.Errorf("view: issue %s: %w", g, err)
	}
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if gs.tokens == nil {
		gs.tokens = map[Grant]string{}
	}
	if t, ok := gs.tokens[g]; ok {
		return t, nil
	}
	t := NewToken()
	gs.tokens[g] = t
	return t, nil
}

func (gs *grants) revoke(g Grant) {
	gs.mu.Lock()
	delete(gs.tokens, g)
	gs.mu.Unlock()
}

// lookup finds the grant of token, comparing in constant time with every
// issued token (there are a handful).
func (gs *grants) lookup(token string) (Grant, bool) {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	var found Grant
	ok := false
	for g, t := range gs.tokens {
		if tokenMatches(token, t) {
			found, ok = g, true
		}
	}
	return found, ok
}

// Issue returns the token that admits g, making one on first use; the same
// grant gets the same token for the server's life (a window that restarts
// or a page that reloads connects with it again). The holder of a token can
// connect only as its grant: the role and preset come from the token, and a
// role or preset in the query must match it.
func (s *Server) Issue(g Grant) (string, error) { return s.grants.issue(g) }

// Revoke forgets g's token and closes the connections it admitted (a
// removed preset's window and page) without waiting for them. A later
// Issue of g makes a new token.
func (s *Server) Revoke(g Grant) {
	s.grants.revoke(g)
	s.mu.Lock()
	cs := s.matching(func(p Peer) bool { return p.Role == g.Role && p.Preset == g.Preset })
	s.mu.Unlock()
	for _, c := range cs {
		// Close waits for the peer's answer (up to 5 s); the caller does
		// not.
		go c.ws.Close(websocket.StatusPolicyViolation, "view: token revoked")
	}
}

// hostAllowed reports whether a request's Host names this server by its
// loopback address (or localhost) and port. Anything else is a page on
// another name resolving to 127.0.0.1 (DNS rebinding).
func (s *Server) hostAllowed(host string) bool {
	_, port, err := net.SplitHostPort(s.Addr())
	if err != nil {
		return false
	}
	h, p, err := net.SplitHostPort(host)
	if err != nil || p != port {
		return false
	}
	h = strings.ToLower(h)
	return h == "127.0.0.1" || h == "localhost"
}

// originAllowed reports whether a browser page of origin may open a view
// connection: the window pages' origin, the server's own http origin, and
// Config.Origins. An empty origin is a client that is not a browser (a
// window's Go shell, a test); only the token admits it.
func (s *Server) originAllowed(origin string) bool {
	if origin == "" {
		return true
	}
	o := strings.ToLower(origin)
	_, port, _ := net.SplitHostPort(s.Addr())
	allowed := append([]string{WindowOrigin, "http://127.0.0.1:" + port, "http://localhost:" + port}, s.cfg.Origins...)
	for _, a := range allowed {
		if o == strings.ToLower(a) {
			return true
		}
	}
	return false
}

// guardHost wraps every route: a request whose Host is not this server's
// loopback address is refused (403) before anything is served.
func (s *Server) guardHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			s.log.Warn("view_refused", "reason", "foreign host", "host", cut(r.Host), "remote", r.RemoteAddr)
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// admit decides who a view request is: the grant of its token, if the
// request's origin may connect at all and the query's role and preset (when
// given) are the token's. It writes the refusal (403) itself.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) (Grant, bool) {
	refuse := func(reason string, attrs ...any) (Grant, bool) {
		s.log.Warn("view_refused", append([]any{"reason", reason, "remote", r.RemoteAddr}, attrs...)...)
		http.Error(w, "forbidden", http.StatusForbidden)
		return Grant{}, false
	}
	origin := r.Header.Get("Origin")
	if !s.originAllowed(origin) {
		return refuse("foreign origin", "origin", cut(origin))
	}
	q := r.URL.Query()
	g, ok := s.grants.lookup(requestToken(r))
	if !ok {
		return refuse("bad token")
	}
	if role := q.Get("role"); role != "" && role != g.Role {
		return refuse("role not the token's", "role", cut(role), "grant", g.Role)
	}
	if q.Has("preset") && q.Get("preset") != g.Preset {
		return refuse("preset not the token's", "grant", g.Role)
	}
	if (g.Role == RoleShell || g.Role == RoleMessageShell) && origin != "" {
		// A window's shell is a Go client; a browser page never is one.
		return refuse("shell from a page", "origin", cut(origin))
	}
	return g, true
}

// requestToken is the token a view request presents: the token query
// parameter (pages: a browser's WebSocket cannot set headers), or else an
// "Authorization: Bearer" header (the shell, so that no error message
// quoting its URL carries the token).
func requestToken(r *http.Request) string {
	if t := r.URL.Query().Get("token"); t != "" {
		return t
	}
	if h := r.Header.Get("Authorization"); len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return h[7:]
	}
	return ""
}

// cut keeps what a client sent short in a log line.
func cut(s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}

// tokenMatches compares in constant time. An empty want never matches.
func tokenMatches(got, want string) bool {
	if want == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
