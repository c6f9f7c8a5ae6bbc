package push_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"yui/transport/push"

	"github.com/coder/websocket"
)

// bare: a minimal push server the tests script frame by frame.

// bare is a websocket server that reads hello and hands the socket to fn.
type bare struct {
	mu     sync.Mutex
	hellos []push.Hello
	raw    [][]byte
	fn     func(n int, c *websocket.Conn, h push.Hello)
	count  int
}

func (b *bare) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(-1)
	_, raw, err := c.Read(context.Background())
	if err != nil {
		return
	}
	f, err := push.DecodeOutbound(raw)
	if err != nil {
		return
	}
	b.mu.Lock()
	b.hellos = append(b.hellos, f.(push.Hello))
	b.raw = append(b.raw, raw)
	b.count++
	n := b.count
	b.mu.Unlock()
	b.fn(n, c, f.(push.Hello))
}

func (b *bare) Hellos() []push.Hello {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]push.Hello(nil), b.hellos...)
}

func writeRaw(c *websocket.Conn, s string) error {
	return c.Write(context.Background(), websocket.MessageText, []byte(s))
}

func writeFrame(t *testing.T, c *websocket.Conn, f push.Frame) {
	t.Helper()
	b, err := push.Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Write(context.Background(), websocket.MessageText, b); err != nil {
		t.Errorf("write %s: %v", f.FrameType(), err)
	}
}

// readClient reads one client frame (decoded) from a bare server's socket.
func readClient(c *websocket.Conn) (push.Frame, error) {
	_, b, err := c.Read(context.Background())
	if err != nil {
		return nil, err
	}
	return push.DecodeOutbound(b)
}

// drain reads client frames into a channel until the socket ends.
func drain(c *websocket.Conn) <-chan push.Frame {
	ch := make(chan push.Frame, 64)
	go func() {
		defer close(ch)
		for {
			f, err := readClient(c)
			if err != nil {
				var de *push.DecodeError
				if errors.As(err, &de) {
					continue
				}
				return
			}
			ch <- f
		}
	}()
	return ch
}
