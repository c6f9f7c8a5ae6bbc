package view

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// hangLimit bounds every wait here; a wait ends as soon as its message or
// close arrives, so the limit only stops a hung test (docs/testing.md).
const hangLimit = 60 * time.Second

func startServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	s := NewServer(cfg)
	if err := s.Listen(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// grant issues the token of role and preset.
func grant(t *testing.T, s *Server, role, preset string) string {
	t.Helper()
	tok, err := s.Issue(Grant{Role: role, Preset: preset})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func dial(t *testing.T, s *Server, token, role, preset string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	u := s.URL() + "?token=" + token + "&role=" + role + "&preset=" + preset
	return websocket.Dial(ctx, u, nil)
}

func readMsg(t *testing.T, c *websocket.Conn) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTokensAreFreshAndLong(t *testing.T) {
	a, b := NewToken(), NewToken()
	if a == b || len(a) < 43 {
		t.Fatalf("tokens %q %q", a, b)
	}
}

func TestWrongTokenRefused(t *testing.T) {
	s := startServer(t, Config{})
	right := grant(t, s, RolePet, "p")
	for _, tok := range []string{"", "wrong", right[:len(right)-1], right + "2"} {
		c, resp, err := dial(t, s, tok, RolePet, "p")
		if err == nil {
			c.CloseNow()
			t.Fatalf("token %q accepted", tok)
		}
		if resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Fatalf("token %q: resp %v", tok, resp)
		}
	}
	c, _, err := dial(t, s, right, RolePet, "p")
	if err != nil {
		t.Fatalf("right token refused: %v", err)
	}
	c.CloseNow()
}

func TestNoGrantAdmitsNobody(t *testing.T) {
	s := startServer(t, Config{})
	if c, resp, err := dial(t, s, "", RolePet, "p"); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		if c != nil {
			c.CloseNow()
		}
		t.Fatalf("a server with no tokens admitted an empty one: %v %v", err, resp)
	}
}

func TestListensOnLoopbackOnly(t *testing.T) {
	s := startServer(t, Config{})
	if !strings.HasPrefix(s.Addr(), "127.0.0.1:") {
		t.Fatalf("addr %s", s.Addr())
	}
}

func TestStickyReplayInOrderAndLive(t *testing.T) {
	s := startServer(t, Config{})
	s.Publish("p1", "plate", MustEncode("plate", map[string]any{"text": "a"}))
	s.Publish("p1", "composer", MustEncode("composer", map[string]any{"locked": false}))
	s.Publish("p1", "plate", MustEncode("plate", map[string]any{"text": "b"}))
	s.Publish("p2", "plate", MustEncode("plate", map[string]any{"text": "other"}))
	c, _, err := dial(t, s, grant(t, s, RolePet, "p1"), RolePet, "p1")
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if m := readMsg(t, c); m["type"] != "composer" {
		t.Fatalf("first replay %v", m)
	}
	if m := readMsg(t, c); m["type"] != "plate" || m["text"] != "b" {
		t.Fatalf("second replay %v", m)
	}
	s.Publish("p1", "plate", MustEncode("plate", map[string]any{"text": "live"}))
	if m := readMsg(t, c); m["text"] != "live" {
		t.Fatalf("live %v", m)
	}
}

func TestMessagesReachHandlerWithPeer(t *testing.T) {
	got := make(chan string, 4)
	s := startServer(t, Config{OnMessage: func(p Peer, m Message) {
		got <- p.Role + "/" + p.Preset + "/" + m.Type + "/" + string(m.Body)
	}})
	c, _, err := dial(t, s, grant(t, s, RolePet, "p9"), RolePet, "p9")
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	ctx := context.Background()
	c.Write(ctx, websocket.MessageText, []byte(`not json`))
	c.Write(ctx, websocket.MessageText, []byte(`{"no":"type"}`))
	c.Write(ctx, websocket.MessageText, []byte(`{"type":"send_text","text":"hi"}`))
	select {
	case g := <-got:
		if g != `pet/p9/send_text/{"type":"send_text","text":"hi"}` {
			t.Fatalf("got %s", g)
		}
	case <-time.After(hangLimit):
		t.Fatal("no message")
	}
}

func TestCloseEndsConnectionsGoingAway(t *testing.T) {
	s := startServer(t, Config{})
	c, _, err := dial(t, s, grant(t, s, RoleShell, "p"), RoleShell, "p")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	readErr := make(chan error, 1)
	go func() { _, _, err := c.Read(ctx); readErr <- err }()
	s.Close()
	if err := <-readErr; websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("read after close: %v", err)
	}
}

func TestEncodeAddsType(t *testing.T) {
	m := MustEncode("plate", struct {
		Text string `json:"text"`
	}{"x"})
	if string(m.Body) != `{"type":"plate","text":"x"}` {
		t.Fatalf("%s", m.Body)
	}
	if e := MustEncode("ping", struct{}{}); string(e.Body) != `{"type":"ping"}` {
		t.Fatalf("%s", e.Body)
	}
	if _, err := Encode("x", 3); err == nil {
		t.Fatal("encoded a non-object")
	}
}

func TestSettingsPageHasItsOwnStickyChannel(t *testing.T) {
	s := startServer(t, Config{})
	tok, petTok := grant(t, s, RoleSettings, ""), grant(t, s, RolePet, "p")
	s.Publish("p", TypePlate, MustEncode(TypePlate, Plate{Kind: "thinking"}))
	s.PublishSettings(TypeSettingsFocus, MustEncode(TypeSettingsFocus, SettingsFocus{Seq: 1, Preset: "p"}))
	c, _, err := dial(t, s, tok, RoleSettings, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if m := readMsg(t, c); m["type"] != TypeSettingsFocus {
		t.Fatalf("settings page got %v first, want only its own topics", m)
	}
	s.Publish("p", TypePlate, MustEncode(TypePlate, Plate{}))
	s.PublishSettings(TypeSettingsState, MustEncode(TypeSettingsState, SettingsState{Revision: 2}))
	if m := readMsg(t, c); m["type"] != TypeSettingsState || m["revision"] != float64(2) {
		t.Fatalf("got %v, want the live settings_state (and no pet plate)", m)
	}
	pet, _, err := dial(t, s, petTok, RolePet, "p")
	if err != nil {
		t.Fatal(err)
	}
	defer pet.CloseNow()
	if m := readMsg(t, pet); m["type"] != TypePlate {
		t.Fatalf("pet page got %v", m)
	}
	s.Forget("p")
	if _, ok := s.Sticky("p", TypePlate); ok {
		t.Fatal("Forget kept the pet's sticky state")
	}
}

func TestDisconnectEndsOnlyThatWindow(t *testing.T) {
	connected := make(chan Peer, 2)
	s := startServer(t, Config{OnConnect: func(p Peer) { connected <- p }})
	a, _, err := dial(t, s, grant(t, s, RoleShell, "a"), RoleShell, "a")
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := dial(t, s, grant(t, s, RoleShell, "b"), RoleShell, "b")
	if err != nil {
		t.Fatal(err)
	}
	defer b.CloseNow()
	<-connected
	<-connected
	// The window reads while the core closes it, as a window does: the
	// close handshake completes at once (read after Disconnect returned,
	// it waited out the library's 5 s close-handshake limit).
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	read := make(chan error, 1)
	go func() { _, _, err := a.Read(ctx); read <- err }()
	s.Disconnect(RoleShell, "a")
	if err := <-read; websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Fatalf("a: %v, want a normal closure", err)
	}
	s.Send(RoleShell, "b", MustEncode(TypeWindowShow, struct{}{}))
	if m := readMsg(t, b); m["type"] != TypeWindowShow {
		t.Fatalf("b got %v", m)
	}
}

func TestGrantsMustMatchTheirPreset(t *testing.T) {
	s := startServer(t, Config{})
	for _, g := range []Grant{{RolePet, ""}, {RoleSettings, "p-00000001"}, {"admin", "p"}} {
		if tok, err := s.Issue(g); err == nil {
			t.Fatalf("grant %+v issued a token %q", g, tok)
		}
	}
}

// A message page mirrors the pet page of its preset: it gets the pet
// channel's sticky replay and what is published there later, plus what is
// sent to its own role; another preset's pet channel and the pet-only
// sends (mouth) do not reach it. Its token admits nothing else.
func TestMessagePageMirrorsItsPetPage(t *testing.T) {
	s := startServer(t, Config{})
	s.Publish("p", TypePlate, MustEncode(TypePlate, Plate{Kind: "connection", Text: "connecting"}))
	s.Publish("q", TypePlate, MustEncode(TypePlate, Plate{Kind: "thinking", Text: "other"}))
	tok := grant(t, s, RoleMessage, "p")
	if c, _, err := dial(t, s, tok, RolePet, "p"); err == nil {
		c.CloseNow()
		t.Fatal("a message token was admitted as the pet page")
	}
	c, _, err := dial(t, s, tok, RoleMessage, "p")
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if m := readMsg(t, c); m["type"] != TypePlate || m["text"] != "connecting" {
		t.Fatalf("replay = %v", m)
	}
	s.Send(RolePet, "p", MustEncode(TypeMouth, Mouth{At: 1, StepMS: 20}))
	s.Publish("q", TypeComposer, MustEncode(TypeComposer, Composer{Locked: true}))
	s.Send(RoleMessage, "p", MustEncode(TypeNotice, Notice{ID: "own", Text: "to the message page"}))
	s.Publish("p", TypeComposer, MustEncode(TypeComposer, Composer{Locked: true}))
	if m := readMsg(t, c); m["type"] != TypeNotice || m["id"] != "own" {
		t.Fatalf("got %v, want its own send (not the pet's mouth, not q's)", m)
	}
	if m := readMsg(t, c); m["type"] != TypeComposer || m["locked"] != true {
		t.Fatalf("got %v, want p's composer", m)
	}
	if _, err := s.Issue(Grant{Role: RoleMessage}); err == nil {
		t.Fatal("a message grant without a preset was issued")
	}
}
