package push_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"

	"yui/transport"
	"yui/transport/push"
)

// benchFrames are the inbound frames measured: a 2-segment render and a
// render of about 200 KiB.
func benchFrames() map[string][]byte {
	small := `{"type":"render","turn_id":"1789365854947","source":"hermes","segments":[{"cues":[{"emotion_id":"happy"}],"speech":"All green."},{"cues":[{"emotion_id":"curious","emotion_text":"👂"}],"speech":"Want the slow ones listed?"}]}`
	var segs []string
	sentence := "The regression suite finished and every one of the slow tests is now under its budget. "
	for i := 0; len(strings.Join(segs, ",")) < 200<<10; i++ {
		segs = append(segs, fmt.Sprintf(`{"cues":[{"emotion_id":"happy","motion_id":"calm"}],"speech":%q}`, strings.Repeat(sentence, 10)))
	}
	big := `{"type":"render","turn_id":"1789365854947","source":"hermes","segments":[` + strings.Join(segs, ",") + `]}`
	return map[string][]byte{"render2seg": []byte(small), "render200KiB": []byte(big)}
}

// blaster is a loopback server that answers hello with ready (when asked)
// and then writes frame n times as fast as it can.
type blaster struct {
	frame     []byte
	n         int
	handshake bool
}

func (bl *blaster) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	ctx := context.Background()
	if bl.handshake {
		if _, _, err := c.Read(ctx); err != nil {
			return
		}
		c.Write(ctx, websocket.MessageText, []byte(`{"type":"ready","chat_id":"bench"}`))
	}
	// Wait for the client's go.
	if _, _, err := c.Read(ctx); err != nil {
		return
	}
	for i := 0; i < bl.n; i++ {
		if err := c.Write(ctx, websocket.MessageText, bl.frame); err != nil {
			return
		}
	}
	c.Read(ctx)
}

// BenchmarkInboundDecodeDispatch measures the push client: read through the
// client's counting reader, DecodeInbound, route, and hand the typed frame
// to the Handler on its goroutine.
func BenchmarkInboundDecodeDispatch(b *testing.B) {
	for name, frame := range benchFrames() {
		b.Run(name, func(b *testing.B) {
			bl := &blaster{frame: frame, n: b.N, handshake: true}
			hs := httptest.NewServer(bl)
			defer hs.Close()
			var seen atomic.Int64
			done := make(chan struct{})
			ready := make(chan struct{}, 1)
			c, err := push.New(push.Config{
				Endpoint: func() string { return hs.URL },
				ChatID:   "bench",
				Handler: transport.HandlerFuncs{
					Event: func(e transport.Event) {
						f := push.FrameOf(e)
						if _, ok := f.(push.Render); !ok {
							b.Errorf("frame %T", f)
						}
						if seen.Add(1) == int64(b.N) {
							close(done)
						}
					},
					State: func(sc push.StateChange) {
						if sc.To == push.StateReady {
							ready <- struct{}{}
						}
					},
				},
			})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			c.Start()
			<-ready
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			b.ResetTimer()
			if err := c.SendReset(context.Background()); err != nil { // the go signal
				b.Fatal(err)
			}
			<-done
			b.StopTimer()
		})
	}
}

// BenchmarkInboundFloor is the floor: a bare coder/websocket read plus
// json.Unmarshal into map[string]any of the same frames over the same
// loopback server.
func BenchmarkInboundFloor(b *testing.B) {
	for name, frame := range benchFrames() {
		b.Run(name, func(b *testing.B) {
			bl := &blaster{frame: frame, n: b.N}
			hs := httptest.NewServer(bl)
			defer hs.Close()
			ctx := context.Background()
			c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws", nil)
			if err != nil {
				b.Fatal(err)
			}
			defer c.CloseNow()
			c.SetReadLimit(-1)
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			b.ResetTimer()
			c.Write(ctx, websocket.MessageText, []byte(`{"type":"reset"}`))
			for i := 0; i < b.N; i++ {
				_, p, err := c.Read(ctx)
				if err != nil {
					b.Fatal(err)
				}
				var m map[string]any
				if err := json.Unmarshal(p, &m); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
		})
	}
}
