package view

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A page that stops reading is dropped once its queue is full, and no
// publisher ever waits for it: another page's round trip stays quick
// (it took 4.9 s before — the close handshake of the stalled page ran
// under the server's lock).
func TestAStalledPageIsDroppedWithoutStallingOthers(t *testing.T) {
	logs := &syncBuffer{}
	connected := make(chan Peer, 4)
	var srv *Server
	srv = startServer(t, Config{
		Logger:    slog.New(slog.NewJSONHandler(logs, nil)),
		OnConnect: func(p Peer) { connected <- p },
		OnMessage: func(p Peer, m Message) {
			// An action's answer: the round trip a page waits on.
			srv.Send(RolePet, p.Preset, MustEncode(TypeErrorLine, ErrorLine{Text: "pong"}))
		},
	})
	stalled, _, err := dial(t, srv, grant(t, srv, RolePet, "a"), RolePet, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.CloseNow() // never read: its socket buffers fill
	<-connected
	other, _, err := dial(t, srv, grant(t, srv, RolePet, "b"), RolePet, "b")
	if err != nil {
		t.Fatal(err)
	}
	defer other.CloseNow()
	<-connected

	big := MustEncode(TypeReasoning, Reasoning{TurnID: "1", Text: strings.Repeat("r", 64<<10)})
	start := time.Now()
	for range 2000 { // 128 MiB: far past the socket buffers and the queue
		srv.Publish("a", TypeReasoning, big)
	}
	publishing := time.Since(start)

	rtStart := time.Now()
	if err := other.Write(context.Background(), websocket.MessageText, []byte(`{"type":"stop"}`)); err != nil {
		t.Fatal(err)
	}
	for {
		m := readMsg(t, other)
		if m["text"] == "pong" {
			break
		}
	}
	roundTrip := time.Since(rtStart)

	// The bound is half the websocket library's 5 s close wait that made
	// the stall: publishing must not wait on the stalled page at all.
	if limit := WriteTimeout / 2; publishing > limit || roundTrip > limit {
		t.Fatalf("publishing took %v and another page's round trip %v with a stalled page (limit %v)", publishing, roundTrip, limit)
	}
	if !strings.Contains(logs.String(), `"msg":"view_dropped"`) || !strings.Contains(logs.String(), `"preset":"a"`) {
		t.Fatalf("no view_dropped line for the stalled page:\n%s", logs.String())
	}
	// The stalled page's socket ends: reading what is buffered, it finds
	// the end rather than 2000 messages.
	stalled.SetReadLimit(-1)
	n := 0
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, _, err := stalled.Read(ctx)
		timedOut := ctx.Err() != nil
		cancel()
		if err != nil {
			if timedOut {
				t.Fatal("the stalled page's socket was not closed")
			}
			break
		}
		n++
	}
	if n >= 2000 {
		t.Fatalf("the stalled page got all %d messages: it was not dropped", n)
	}
}
