package push_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"

	"github.com/coder/websocket"
)

// Reconnecting: the backoff, 4401, a fresh key each attempt, one attempt at a time, stale sockets, no timer after Close.

func TestBackoffSequence1To30(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
		e := newEnv(t, envOpts{handler: h})
		time.Sleep(200 * time.Second)
		d := e.Dials()
		want := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30}
		if len(d) < len(want)+1 {
			t.Fatalf("dials = %d", len(d))
		}
		for i, w := range want {
			if got := d[i+1].Sub(d[i]); got != w*time.Second {
				t.Errorf("delay %d = %v, want %v", i, got, w*time.Second)
			}
		}
		logs := e.logs.All(push.EventReconnect)
		for i, w := range want {
			if got := logs[i].Attrs["delay_ms"]; got != (w * time.Second).Milliseconds() {
				t.Errorf("ws_reconnect %d delay_ms = %v, want %v", i, got, (w * time.Second).Milliseconds())
			}
		}
		e.wantState(push.StateReconnecting)
		e.close()
	})
}

func TestBackoffResetsAfterReady(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{server: pushserver.Config{Key: "other"}, noStart: true})
		// Three failures (1 s, 2 s, 4 s) against an unreachable endpoint, then
		// a reachable one.
		e.setEndpoint("ftp://nowhere")
		e.c.Start()
		synctest.Wait()
		time.Sleep(3 * time.Second) // attempts at 0, 1, 3
		synctest.Wait()
		e.wantState(push.StateReconnecting)
		if got := e.rec.lastState().RetryIn; got != 4*time.Second {
			t.Fatalf("third delay = %v, want 4s", got)
		}
		e.close()
	})
	bubble(t, func(t *testing.T) {
		var fail atomic.Bool
		fail.Store(true)
		srv := pushserver.New(pushserver.Config{Key: testKey})
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if fail.Load() {
				http.Error(w, "down", http.StatusBadGateway)
				return
			}
			srv.ServeHTTP(w, r)
		})
		e := newEnv(t, envOpts{handler: h})
		time.Sleep(3 * time.Second) // failures at 0, 1, 3 → next delay 4 s
		synctest.Wait()
		if got := e.rec.lastState().RetryIn; got != 4*time.Second {
			t.Fatalf("delay before ready = %v", got)
		}
		fail.Store(false)
		time.Sleep(4 * time.Second)
		e.wantState(push.StateReady)
		srv.Kick(testChatID, websocket.StatusGoingAway, "restart")
		synctest.Wait()
		e.wantState(push.StateReconnecting)
		if got := e.rec.lastState().RetryIn; got != time.Second {
			t.Errorf("delay after ready = %v, want 1s", got)
		}
		time.Sleep(time.Second)
		e.wantState(push.StateReady)
		e.close()
		srv.Close()
	})
}

func Test4401FailsAndStopsRetrying(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{clientKey: "wrong"})
		e.wantState(push.StateFailed)
		last := e.rec.lastState()
		if !errors.Is(last.Err, push.ErrUnauthorized) || last.Code != 4401 {
			t.Errorf("state change = %+v", last)
		}
		time.Sleep(time.Hour)
		if n := len(e.Dials()); n != 1 {
			t.Errorf("dials after 4401 = %d, want 1", n)
		}
		if n := e.logs.Count(push.EventReconnect); n != 0 {
			t.Errorf("ws_reconnect after 4401: %d", n)
		}
		if got := e.logs.All(push.EventClose); len(got) != 1 || got[0].Attrs["code"] != int64(4401) {
			t.Errorf("ws_close = %+v", got)
		}
	})
}

func TestReconnectNowFromFailed(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{clientKey: "wrong"})
		e.wantState(push.StateFailed)
		e.c.ReconnectNow()
		synctest.Wait()
		e.wantState(push.StateFailed) // still the wrong key: one more attempt, no retry
		if n := len(e.Dials()); n != 2 {
			t.Fatalf("dials = %d, want 2", n)
		}
		e.setKey(testKey)
		e.c.ReconnectNow()
		e.wantState(push.StateReady)
	})
}

func TestBlankEndpointIsNotConfigured(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{endpoint: "   ", noStart: true})
		e.setEndpoint("  ")
		e.c.Start()
		synctest.Wait()
		e.wantState(push.StateDisconnected)
		if last := e.rec.lastState(); !errors.Is(last.Err, push.ErrNotConfigured) {
			t.Errorf("state change = %+v", last)
		}
		time.Sleep(time.Hour)
		if n := len(e.Dials()); n != 0 {
			t.Errorf("dials = %d", n)
		}
		if e.logs.Count(push.EventNotConfigured) != 1 {
			t.Errorf("ws_not_configured not logged once")
		}
		e.setEndpoint("http://backend.test")
		e.c.ReconnectNow()
		e.wantState(push.StateReady)
	})
}

func TestKeyAndEndpointReadFreshOnEachAttempt(t *testing.T) {
	bubble(t, func(t *testing.T) {
		b := &bare{fn: func(n int, c *websocket.Conn, _ push.Hello) { c.Close(websocket.StatusInternalError, "x") }}
		e := newEnv(t, envOpts{handler: b})
		e.setKey("k2")
		e.setEndpoint("http://second.test/base/")
		time.Sleep(time.Second)
		synctest.Wait()
		hs := b.Hellos()
		if len(hs) < 2 || hs[0].Key != testKey || hs[1].Key != "k2" {
			t.Fatalf("hello keys not read fresh (%d hellos)", len(hs))
		}
		opens := e.logs.All(push.EventOpen)
		if opens[1].Attrs["url"] != "ws://second.test/base/ws" {
			t.Errorf("second url = %v", opens[1].Attrs["url"])
		}
		e.close()
	})
}

func TestOnlyOneAttemptInFlight(t *testing.T) {
	bubble(t, func(t *testing.T) {
		b := &bare{fn: func(_ int, c *websocket.Conn, _ push.Hello) { c.Read(context.Background()) }}
		e := newEnv(t, envOpts{handler: b})
		for i := 0; i < 5; i++ {
			e.c.ReconnectNow()
			e.c.ReconnectNow()
			synctest.Wait()
		}
		time.Sleep(time.Minute)
		e.mu.Lock()
		maxOpen := e.maxOpen
		e.mu.Unlock()
		if maxOpen != 1 {
			t.Errorf("max concurrent sockets = %d, want 1", maxOpen)
		}
		e.close()
	})
}

func TestStaleSocketEventsAreIgnored(t *testing.T) {
	bubble(t, func(t *testing.T) {
		release := make(chan struct{})
		b := &bare{}
		b.fn = func(n int, c *websocket.Conn, h push.Hello) {
			writeFrame(t, c, push.Ready{ChatID: h.ChatID})
			if n == 1 {
				<-release
				// The client has moved on: these must change nothing.
				c.Write(context.Background(), websocket.MessageText, []byte(`{"type":"render","turn_id":"old","segments":[]}`))
				c.Close(4401, "late")
				return
			}
			c.Read(context.Background())
		}
		e := newEnv(t, envOpts{handler: b})
		e.wantState(push.StateReady)
		// A new attempt whose socket never ends: the old socket's goroutine
		// is held until the client moved on.
		e.c.ReconnectNow()
		close(release)
		synctest.Wait()
		time.Sleep(time.Minute)
		e.wantState(push.StateReady)
		for _, f := range e.rec.Frames() {
			if push.TurnIDOf(f) == "old" {
				t.Errorf("stale frame delivered: %+v", f)
			}
		}
		for _, s := range e.rec.States() {
			if s.To == push.StateFailed {
				t.Errorf("stale 4401 failed the client")
			}
		}
		e.close()
	})
}

func TestNoTimerSurvivesClose(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, e *env)
	}{
		{"reconnecting", func(t *testing.T, e *env) { e.srv.Kick(testChatID, websocket.StatusGoingAway, "x") }},
		{"hello wait", nil},
		{"turn wait and tool wait", func(t *testing.T, e *env) {
			if err := e.c.SendTurn(context.Background(), push.Turn{TurnID: "7"}); err != nil {
				t.Fatal(err)
			}
			go e.srv.CallTool(context.Background(), testChatID, "7", "look", map[string]any{})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				var e *env
				block := func(int, *websocket.Conn, push.Hello) {}
				if tc.setup == nil {
					b := &bare{fn: func(_ int, c *websocket.Conn, _ push.Hello) { c.Read(context.Background()) }}
					_ = block
					e = newEnv(t, envOpts{handler: b})
				} else {
					slow := transport.ToolFunc{Name: "look", RunFunc: func(ctx context.Context, _ transport.ToolCall) (string, []string, error) {
						<-ctx.Done()
						return "", nil, ctx.Err()
					}}
					e = newEnv(t, envOpts{tools: []push.Tool{slow}})
					tc.setup(t, e)
				}
				synctest.Wait()
				e.c.Close()
				n := e.logs.Len()
				dials := len(e.Dials())
				states := len(e.rec.States())
				waits := len(e.rec.Waits())
				time.Sleep(24 * time.Hour)
				if e.logs.Len() != n {
					t.Errorf("log lines after Close:\n%s", e.logs.Dump())
				}
				if len(e.Dials()) != dials || len(e.rec.States()) != states || len(e.rec.Waits()) != waits {
					t.Errorf("activity after Close")
				}
				if e.c.State() != push.StateDisconnected {
					t.Errorf("state after Close = %v", e.c.State())
				}
				if e.srv != nil {
					e.srv.Close()
				}
			})
		})
	}
}
