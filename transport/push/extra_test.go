package push_test

import (
	"context"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"
)

func TestReconnectNowSkipsTheArmedDelay(t *testing.T) {
	bubble(t, func(t *testing.T) {
		down := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusBadGateway) })
		e := newEnv(t, envOpts{handler: down})
		time.Sleep(3 * time.Second) // attempts at 0, 1, 3; next armed for 4 s
		synctest.Wait()
		e.c.ReconnectNow()
		synctest.Wait()
		d := e.Dials()
		if len(d) != 4 || d[3].Sub(d[2]) != 0 {
			t.Fatalf("dials at %v", d)
		}
		// The schedule starts over.
		if got := e.rec.lastState().RetryIn; got != time.Second {
			t.Errorf("delay after ReconnectNow = %v, want 1s", got)
		}
		e.close()
	})
}

func TestCloseBeforeStartAndTwice(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{noStart: true})
		if err := e.c.Close(); err != nil {
			t.Fatal(err)
		}
		e.c.Start()
		e.c.ReconnectNow()
		synctest.Wait()
		if len(e.Dials()) != 0 || e.c.State() != push.StateDisconnected {
			t.Error("client started after Close")
		}
		if err := e.c.Close(); err != nil {
			t.Error(err)
		}
	})
}

func TestHandlerMayCallTheClient(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := &serverHooks{}
		srv := pushserver.New(pushserver.Config{Key: testKey, Hooks: h.hooks()})
		var c *push.Client
		c, _ = push.New(push.Config{
			Endpoint: func() string { return "http://backend.test" }, Key: func() string { return testKey }, ChatID: testChatID,
			HTTPClient: pushserver.InMemoryClient(srv),
			Handler: transport.HandlerFuncs{State: func(sc push.StateChange) {
				if sc.To == push.StateReady {
					c.SendPlayback(context.Background(), "41")
					c.State()
					c.SetVocabulary(push.Vocabulary{EmotionIDs: []string{"x"}})
				}
			}},
		})
		c.Start()
		synctest.Wait()
		got := h.get()
		if len(got.playbacks) != 1 || len(got.vocabs) != 1 {
			t.Errorf("from the handler: playbacks %d vocabs %d", len(got.playbacks), len(got.vocabs))
		}
		c.Close()
		srv.Close()
	})
}

func TestServerHelloReflectsVocabularyUpdates(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		e.c.SetVocabulary(push.Vocabulary{EmotionIDs: []string{"sleepy"}})
		synctest.Wait()
		h, ok := e.srv.Hello(testChatID)
		if !ok || h.Vocabulary.EmotionIDs[0] != "sleepy" || h.ChatID != testChatID {
			t.Errorf("Hello = %+v, %v", h.Vocabulary, ok)
		}
	})
}
