package demobackend_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/demobackend"
	"yui/transport"
	"yui/transport/pushserver"
	"yui/transport/threads"
)

// A proactive turn on a Standard Agents thread (the block is the message,
// the utterance empty) gets the demo's in-character answer too.
func TestProactiveTurnOnTheThreadsRoute(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := demobackend.New(demobackend.Config{Key: "demo-k"})
		defer b.Close()
		hc := pushserver.InMemoryClient(b.Routes())
		tr, err := threads.New(threads.Config{Endpoint: func() string { return "http://demo.test" }, Key: func() string { return "demo-k" },
			Agent: func() string { return demobackend.DemoAgent }, HTTPClient: hc})
		if err != nil {
			t.Fatal(err)
		}
		defer tr.Close()
		var mu sync.Mutex
		var said []string
		ended, ready := false, false
		tr.Start(transport.HandlerFuncs{
			State: func(c transport.StateChange) { mu.Lock(); ready = ready || c.To == transport.StateReady; mu.Unlock() },
			Event: func(e transport.Event) {
				mu.Lock()
				defer mu.Unlock()
				switch e := e.(type) {
				case transport.Speech:
					for _, s := range e.Segments {
						said = append(said, s.Speech)
					}
				case transport.TurnEnd:
					ended = true
				}
			},
		})
		synctest.Wait()
		if !ready {
			t.Fatal("not ready")
		}
		cc := "<client_context>\ntime: 2026-01-01T00:00:00+00:00 (UTC)\nbody: standing\ntrigger: proactive \"welcome back\" (user idle 40min)\n</client_context>"
		if err := tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", ClientContext: cc}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Minute) // the script's pacing, in fake time
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		if got := strings.Join(said, " "); !ended || !strings.Contains(got, "Welcome back!") {
			t.Fatalf("said %q", got)
		}
	})
}
