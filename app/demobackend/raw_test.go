package demobackend_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/coder/websocket"

	"yui/app/demobackend"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// rawClient speaks the wire directly, for hellos the push client never
// sends (no accepts, odd vocabularies).
type rawClient struct {
	t     *testing.T
	c     *websocket.Conn
	start time.Time
	mu    sync.Mutex
	lines []string
	done  chan struct{}
}

// dialRaw connects to b and sends hello (extra fields merged; nil deletes).
func dialRaw(t *testing.T, b *demobackend.Backend, extra map[string]any) *rawClient {
	t.Helper()
	c, _, err := websocket.Dial(context.Background(), "ws://demo.test/ws", &websocket.DialOptions{HTTPClient: pushserver.InMemoryClient(b)})
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(-1)
	hello := map[string]any{"type": "hello", "key": testKey, "chat_id": "yui-0000raw0", "accepts": []string{"error"},
		"vocabulary": map[string]any{"emotion_ids": []string{}, "motion_ids": []string{}, "emotion_text_mode": "free", "emotion_text_map": map[string]string{}}}
	for k, v := range extra {
		if v == nil {
			delete(hello, k)
		} else {
			hello[k] = v
		}
	}
	r := &rawClient{t: t, c: c, start: time.Now(), done: make(chan struct{})}
	r.send(hello)
	go func() {
		defer close(r.done)
		for {
			_, data, err := c.Read(context.Background())
			if err != nil {
				return
			}
			f, err := push.DecodeInbound(data)
			if err != nil {
				t.Errorf("unreadable frame %s: %v", data, err)
				continue
			}
			if _, ok := f.(push.Ready); ok {
				continue
			}
			r.mu.Lock()
			r.lines = append(r.lines, fmt.Sprintf("%6d %s", time.Since(r.start).Milliseconds(), describe(f)))
			r.mu.Unlock()
		}
	}()
	synctest.Wait()
	return r
}

func (r *rawClient) send(v any) {
	r.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := r.c.Write(context.Background(), websocket.MessageText, b); err != nil {
		r.t.Fatal(err)
	}
	synctest.Wait()
}

func (r *rawClient) take() []string {
	synctest.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.lines
	r.lines = nil
	return out
}

func (r *rawClient) close() {
	_ = r.c.Close(websocket.StatusNormalClosure, "")
	<-r.done
}
