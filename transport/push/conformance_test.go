package push_test

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"

	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"
	"yui/transport/transporttest"
)

// TestConformance: push passes the transport suite against a pushserver
// on loopback playing the script.
func TestConformance(t *testing.T) {
	transporttest.Run(t, func(t *testing.T, tools []transport.Tool) transporttest.Wire {
		var (
			mu         sync.Mutex
			sinceReset int
			remembered bool
			stopped    = map[string]chan struct{}{}
			srv        *pushserver.Server
			chatID     = "yui-c0ffee00"
		)
		slowStop := func(id string) chan struct{} {
			mu.Lock()
			defer mu.Unlock()
			if stopped[id] == nil {
				stopped[id] = make(chan struct{})
			}
			return stopped[id]
		}
		play := func(chat string, tu push.Turn) {
			id := tu.TurnID
			seg := func(s string, cues ...push.Cue) push.Segment { return push.Segment{Speech: s, Cues: cues} }
			switch tu.Text {
			case transporttest.TextHello:
				srv.SendReasoning(chat, id, transporttest.Reasoning)
				srv.SendToolStatus(chat, id, "running", transporttest.BackendTool)
				srv.SendToolStatus(chat, id, "done", transporttest.BackendTool)
				srv.SendSpeech(chat, push.Speech{TurnID: id, Segments: []push.Segment{seg(transporttest.HelloFirst, transporttest.CueFirst)}})
				srv.SendSpeech(chat, push.Speech{TurnID: id, Segments: []push.Segment{seg(transporttest.HelloSecond, transporttest.CueSecond)}})
				srv.SendRender(chat, push.Render{TurnID: id, Segments: []push.Segment{seg("", transporttest.CueSilent)}, Reasoning: transporttest.Reasoning})
				u := transporttest.HelloUsage
				srv.SendTurnEnd(chat, id, &u)
			case transporttest.TextLook:
				srv.SendToolStatus(chat, id, "running", "look")
				srv.CallTool(context.Background(), chat, id, "look", map[string]any{"at": "body"})
				srv.SendToolStatus(chat, id, "done", "look")
				srv.SendRender(chat, push.Render{TurnID: id, Segments: []push.Segment{seg(transporttest.TextSeen)}})
				srv.SendTurnEnd(chat, id, nil)
			case transporttest.TextFail:
				srv.SendError(chat, id, transporttest.ErrorText)
				srv.SendTurnEnd(chat, id, nil)
			case transporttest.TextSlow:
				srv.SendSpeech(chat, push.Speech{TurnID: id, Segments: []push.Segment{seg(transporttest.SlowFirst)}})
				<-slowStop(id)
				srv.SendTurnEnd(chat, id, nil)
			case transporttest.TextAgain:
				srv.SendRender(chat, push.Render{TurnID: id, Segments: []push.Segment{seg(transporttest.AgainReply)}})
				srv.SendTurnEnd(chat, id, nil)
			}
		}
		srv = pushserver.New(pushserver.Config{Key: "k", Hooks: pushserver.Hooks{
			Turn: func(chat string, tu push.Turn) {
				mu.Lock()
				remembered = sinceReset > 0
				sinceReset++
				mu.Unlock()
				go play(chat, tu)
			},
			Stop: func(_ string, ids []string) {
				for _, id := range ids {
					close(slowStop(id))
				}
			},
			Reset: func(string) { mu.Lock(); sinceReset = 0; mu.Unlock() },
		}})
		hs := httptest.NewServer(srv)
		t.Cleanup(func() { hs.Close(); srv.Close() })
		tr, err := push.NewTransport(push.Config{Endpoint: func() string { return hs.URL }, Key: func() string { return "k" },
			ChatID: chatID, Tools: tools})
		if err != nil {
			t.Fatal(err)
		}
		return transporttest.Wire{Transport: tr, Carries: transporttest.Carries{ToolRunning: true},
			Remembers: func() bool { mu.Lock(); defer mu.Unlock(); return remembered }}
	})
}
