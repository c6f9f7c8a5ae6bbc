package view

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"testing/fstest"
	"time"

	"github.com/coder/websocket"
)

// dialWith dials with the given query and Origin header ("" sends none).
func dialWith(t *testing.T, s *Server, q url.Values, origin string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	c, resp, err := websocket.Dial(ctx, s.URL()+"?"+q.Encode(), &websocket.DialOptions{HTTPHeader: h})
	if err == nil {
		t.Cleanup(func() { c.CloseNow() })
	}
	return c, resp, err
}

func mustRefuse(t *testing.T, what string, c *websocket.Conn, resp *http.Response, err error) {
	t.Helper()
	if err == nil {
		c.CloseNow()
		t.Fatalf("%s: admitted", what)
	}
	if resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("%s: %v %v, want 403", what, err, resp)
	}
}

// TestRolesAreBoundToTokens: a token admits only the role and preset it
// was issued for; a page cannot declare itself another role.
func TestRolesAreBoundToTokens(t *testing.T) {
	peers := make(chan Peer, 4)
	s := startServer(t, Config{OnConnect: func(p Peer) { peers <- p }})
	pet := grant(t, s, RolePet, "a")
	settings := grant(t, s, RoleSettings, "")
	shell := grant(t, s, RoleShell, "a")
	if pet == settings || pet == shell || settings == shell {
		t.Fatal("two grants share a token")
	}
	if again := grant(t, s, RolePet, "a"); again != pet {
		t.Fatal("the same grant got a second token")
	}
	for _, c := range []struct {
		what string
		q    url.Values
	}{
		{"pet token as settings", url.Values{"token": {pet}, "role": {RoleSettings}, "preset": {""}}},
		{"pet token as shell", url.Values{"token": {pet}, "role": {RoleShell}, "preset": {"a"}}},
		{"pet token for another preset", url.Values{"token": {pet}, "role": {RolePet}, "preset": {"b"}}},
		{"settings token as a pet", url.Values{"token": {settings}, "role": {RolePet}, "preset": {"a"}}},
		{"shell token as the pet page", url.Values{"token": {shell}, "role": {RolePet}, "preset": {"a"}}},
	} {
		conn, resp, err := dialWith(t, s, c.q, "")
		mustRefuse(t, c.what, conn, resp, err)
	}
	// Without a declared role the token's own grant is the peer.
	if _, _, err := dialWith(t, s, url.Values{"token": {pet}}, ""); err != nil {
		t.Fatal(err)
	}
	if p := <-peers; p.Role != RolePet || p.Preset != "a" {
		t.Fatalf("peer %+v, want the pet page of a", p)
	}
	if _, _, err := dialWith(t, s, url.Values{"token": {settings}, "role": {RoleSettings}}, ""); err != nil {
		t.Fatal(err)
	}
	if p := <-peers; p.Role != RoleSettings || p.Preset != "" {
		t.Fatalf("peer %+v, want the settings page", p)
	}
}

// TestOriginChecked: browser pages may connect only from the app's own
// origins; a shell never from a page.
func TestOriginChecked(t *testing.T) {
	s := startServer(t, Config{})
	pet := grant(t, s, RolePet, "a")
	q := url.Values{"token": {pet}, "role": {RolePet}, "preset": {"a"}}
	own := "http://" + s.Addr()
	for _, o := range []string{"http://evil.example", "https://127.0.0.1", "null", "file://", own + "0", "http://127.0.0.1:1", "wails://evil"} {
		conn, resp, err := dialWith(t, s, q, o)
		mustRefuse(t, "origin "+o, conn, resp, err)
	}
	for _, o := range []string{WindowOrigin, own, "WAILS://wails"} {
		if _, _, err := dialWith(t, s, q, o); err != nil {
			t.Fatalf("origin %s refused: %v", o, err)
		}
	}
	shell := grant(t, s, RoleShell, "a")
	conn, resp, err := dialWith(t, s, url.Values{"token": {shell}, "role": {RoleShell}, "preset": {"a"}}, WindowOrigin)
	mustRefuse(t, "a shell with a page origin", conn, resp, err)
}

// TestHostChecked: a request naming another host (a DNS rebinding page) is
// refused, for the view socket and for the pages alike.
func TestHostChecked(t *testing.T) {
	s := startServer(t, Config{Pages: fstest.MapFS{"index.html": {Data: []byte("<p>yui</p>")}}})
	pet := grant(t, s, RolePet, "a")
	get := func(host, path string) int {
		t.Helper()
		req, err := http.NewRequest("GET", "http://"+s.Addr()+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	_, port, _ := splitPort(s.Addr())
	for _, h := range []string{"evil.example:" + port, "127.0.0.2:" + port, "localhost:1", "127.0.0.1"} {
		if c := get(h, "/"); c != http.StatusForbidden {
			t.Fatalf("pages with Host %s: %d, want 403", h, c)
		}
		if c := get(h, "/view?token="+url.QueryEscape(pet)); c != http.StatusForbidden {
			t.Fatalf("view with Host %s: %d, want 403", h, c)
		}
	}
	for _, h := range []string{s.Addr(), "localhost:" + port, "LOCALHOST:" + port} {
		if c := get(h, "/"); c != http.StatusOK {
			t.Fatalf("pages with Host %s: %d, want 200", h, c)
		}
	}
}

func splitPort(addr string) (string, string, error) {
	u, err := url.Parse("http://" + addr)
	if err != nil {
		return "", "", err
	}
	return u.Hostname(), u.Port(), nil
}

// TestRevokeEndsTheGrant: a revoked token closes its connections and
// admits nobody after; the grant's next token is a new one.
func TestRevokeEndsTheGrant(t *testing.T) {
	connected := make(chan Peer, 2)
	s := startServer(t, Config{OnConnect: func(p Peer) { connected <- p }})
	tok := grant(t, s, RolePet, "a")
	c, _, err := dial(t, s, tok, RolePet, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	<-connected
	s.Revoke(Grant{Role: RolePet, Preset: "a"})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, _, err := c.Read(ctx); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Fatalf("read after revoke: %v, want a policy-violation close", err)
	}
	conn, resp, err := dial(t, s, tok, RolePet, "a")
	mustRefuse(t, "a revoked token", conn, resp, err)
	if again := grant(t, s, RolePet, "a"); again == tok {
		t.Fatal("a revoked grant got its old token back")
	}
}

// TestTokenInAHeader: a Go client (the shell) may present its token as a
// bearer header instead of in the URL.
func TestTokenInAHeader(t *testing.T) {
	s := startServer(t, Config{})
	shell := grant(t, s, RoleShell, "a")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h := http.Header{"Authorization": {"Bearer " + shell}}
	c, _, err := websocket.Dial(ctx, s.URL()+"?role=shell&preset=a", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	c.CloseNow()
	h.Set("Authorization", "Bearer "+shell+"x")
	c, resp, err := websocket.Dial(ctx, s.URL()+"?role=shell&preset=a", &websocket.DialOptions{HTTPHeader: h})
	mustRefuse(t, "a wrong bearer token", c, resp, err)
}
