package push

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/coder/websocket"

	"yui/transport"
)

// A backend that closes the socket the moment it reads a turn: the turn
// frame was written whole, so the turn was sent, and it ends as a turn
// whose socket left ready (HandleTurnWait) — not as a turn that never went
// out (the chaos soak's "drop" turns were sometimes reported not sent).
func TestATurnWrittenJustBeforeTheSocketEndsCountsAsSent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := context.Background()
		if _, _, err := c.Read(ctx); err != nil { // hello
			return
		}
		c.Write(ctx, websocket.MessageText, []byte(`{"type":"ready","chat_id":"yui-00000000"}`))
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			if f, err := DecodeOutbound(b); err == nil {
				if _, ok := f.(Turn); ok {
					c.Close(websocket.StatusInternalError, "gone")
					return
				}
			}
		}
	}))
	defer srv.Close()

	ready, left := make(chan struct{}, 1), make(chan struct{}, 1)
	waits := make(chan TurnWaitEnded, 4)
	c, err := New(Config{
		Endpoint: func() string { return srv.URL },
		ChatID:   "yui-00000000",
		Handler: transport.HandlerFuncs{
			State: func(sc StateChange) {
				switch {
				case sc.To == StateReady:
					ready <- struct{}{}
				case sc.From == StateReady:
					left <- struct{}{}
				}
			},
			TurnWait: func(w TurnWaitEnded) { waits <- w },
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// The socket ends between the turn's write and its being marked sent.
	testHookTurnWritten = func() { <-left }
	defer func() { testHookTurnWritten = nil }()
	c.Start()
	<-ready
	if err := c.SendTurn(context.Background(), Turn{TurnID: "1"}); err != nil {
		t.Fatalf("SendTurn = %v: the frame was written whole, the turn was sent", err)
	}
	select {
	case w := <-waits:
		if w.TurnID != "1" || w.Reason != SocketLeftReady {
			t.Fatalf("turn wait %+v", w)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the sent turn's end was never reported")
	}
}
