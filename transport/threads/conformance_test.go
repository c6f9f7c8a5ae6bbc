package threads_test

import (
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"yui/transport"
	"yui/transport/threads"
	"yui/transport/threads/threadserver"
	"yui/transport/transporttest"
)

// script plays the conformance script as a thread agent.
func script(remembered *atomic.Bool) threadserver.Agent {
	return func(r *threadserver.Reply) {
		remembered.Store(r.Prior() > 0)
		switch r.Utterance() {
		case transporttest.TextHello:
			r.Think(transporttest.Reasoning)
			r.Tool(transporttest.BackendTool, true)
			r.Say(transporttest.HelloFirst+" ", transporttest.HelloSecond)
		case transporttest.TextFail:
			r.Fail(transporttest.ErrorText)
		case transporttest.TextSlow:
			r.Say(transporttest.SlowFirst + " ")
			<-r.Context().Done()
		case transporttest.TextAgain:
			r.Say(transporttest.AgainReply)
		default:
			r.Say("unscripted")
		}
	}
}

// TestConformance: the threads wire passes the transport suite against the
// runtime of either generation, where the wire can carry each step (no cue
// tool, no client tools, no usage; a failed run shows the generic line).
func TestConformance(t *testing.T) {
	for name, b := range behaviours() {
		t.Run(name, func(t *testing.T) {
			transporttest.Run(t, func(t *testing.T, tools []transport.Tool) transporttest.Wire {
				var remembered atomic.Bool
				srv := threadserver.New(threadserver.Config{Key: testKey, Agent: script(&remembered), Behaviour: b})
				hs := httptest.NewServer(srv)
				t.Cleanup(func() {
					hs.CloseClientConnections()
					srv.Close()
					hs.Close()
				})
				tr, err := threads.New(threads.Config{
					Endpoint: func() string { return hs.URL },
					Key:      func() string { return testKey },
					Agent:    func() string { return "yui-test" },
				})
				if err != nil {
					t.Fatal(err)
				}
				return transporttest.Wire{Transport: tr, Remembers: remembered.Load,
					Carries: transporttest.Carries{ToolRunning: true,
						Lacks: transporttest.Lacks{Cues: true, ClientTools: true, Usage: true, ErrorText: true}}}
			})
		})
	}
}
