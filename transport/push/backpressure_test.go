package push_test

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/coder/websocket"

	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// A Handler that falls behind stops the reading: the client holds at most
// about MaxPendingFrames frames, the rest wait on the socket (before, the
// client read and queued all of them), and every frame still arrives, in
// order, once the Handler catches up.
func TestASlowHandlerHoldsTheReadLoopBack(t *testing.T) {
	bubble(t, func(t *testing.T) {
		const n = 1000
		var written atomic.Int64
		pad := strings.Repeat("p", 8<<10) // bigger than the reader's buffer
		b := &bare{fn: func(_ int, c *websocket.Conn, h push.Hello) {
			writeFrame(t, c, push.Ready{ChatID: h.ChatID})
			for i := range n {
				f := push.Render{TurnID: fmt.Sprint("bg-", i), Source: pad, Segments: []push.Segment{{Speech: "hi"}}}
				writeFrame(t, c, f)
				written.Add(1)
			}
			<-drain(c)
		}}
		release := make(chan struct{})
		var mu sync.Mutex
		var got []string
		first := true
		h := transport.HandlerFuncs{Event: func(e transport.Event) {
			f := push.FrameOf(e)
			if first {
				first = false
				<-release
			}
			if r, ok := f.(push.Render); ok {
				mu.Lock()
				got = append(got, r.TurnID)
				mu.Unlock()
			}
		}}
		c, err := push.New(push.Config{Endpoint: func() string { return "http://backend.test:8646" }, ChatID: testChatID,
			Handler: h, HTTPClient: pushserver.InMemoryClient(b)})
		if err != nil {
			t.Fatal(err)
		}
		c.Start()
		synctest.Wait()
		w := written.Load()
		close(release)
		synctest.Wait()
		if w > push.MaxPendingFrames+8 {
			t.Fatalf("the client read %d frames while its Handler was stuck; want about %d", w, push.MaxPendingFrames)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(got) != n {
			t.Fatalf("%d of %d frames handled after the Handler caught up", len(got), n)
		}
		for i, id := range got {
			if id != fmt.Sprint("bg-", i) {
				t.Fatalf("frame %d is %s: out of order", i, id)
			}
		}
		c.Close()
	})
}
