package push_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/coder/websocket"

	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"
)

func TestHelloFirstCarriesKeyChatIDAcceptsVocabularyTools(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := &serverHooks{}
		look := transport.ToolFunc{Name: "look", Description: "Read body state", Parameters: mustJSON(map[string]any{"type": "object"})}
		e := newEnv(t, envOpts{server: pushserver.Config{Hooks: h.hooks()}, tools: []push.Tool{look}})
		e.wantState(push.StateReady)
		got := h.get().hellos
		if len(got) != 1 {
			t.Fatalf("hellos = %d", len(got))
		}
		hl := got[0]
		if hl.Key != testKey || hl.ChatID != testChatID {
			t.Errorf("hello key/chat = %q/%q", hl.Key, hl.ChatID)
		}
		if len(hl.Accepts) != 1 || hl.Accepts[0] != "error" {
			t.Errorf("accepts = %v", hl.Accepts)
		}
		if len(hl.Vocabulary.EmotionIDs) != 2 || hl.Vocabulary.EmotionTextMode != "free" {
			t.Errorf("vocabulary = %+v", hl.Vocabulary)
		}
		if len(hl.Tools) != 1 || hl.Tools[0].Type != "function" || hl.Tools[0].Function.Name != "look" {
			t.Errorf("tools = %+v", hl.Tools)
		}
	})
}

func TestHelloWithoutToolsOmitsTheField(t *testing.T) {
	bubble(t, func(t *testing.T) {
		b := &bare{fn: func(_ int, c *websocket.Conn, _ push.Hello) { c.Read(context.Background()) }}
		e := newEnv(t, envOpts{handler: b})
		synctest.Wait()
		b.mu.Lock()
		raw := string(b.raw[0])
		b.mu.Unlock()
		if strings.Contains(raw, `"tools"`) {
			t.Errorf("hello carries tools: %s", raw)
		}
		if !strings.HasPrefix(raw, `{"type":"hello"`) {
			t.Errorf("hello = %s", raw)
		}
		e.close()
	})
}

func TestStateSequenceToReady(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		st := e.rec.States()
		want := []push.State{push.StateConnecting, push.StateReady}
		if len(st) != len(want) {
			t.Fatalf("states = %+v", st)
		}
		for i, s := range st {
			if s.To != want[i] {
				t.Errorf("state %d = %v, want %v", i, s.To, want[i])
			}
		}
		if st[0].From != push.StateDisconnected {
			t.Errorf("first from = %v", st[0].From)
		}
	})
}

func TestNothingButHelloBeforeReady(t *testing.T) {
	bubble(t, func(t *testing.T) {
		got := make(chan push.Frame, 8)
		b := &bare{fn: func(_ int, c *websocket.Conn, _ push.Hello) {
			for f := range drain(c) {
				got <- f
			}
		}}
		e := newEnv(t, envOpts{handler: b})
		e.wantState(push.StateConnecting)
		ctx := context.Background()
		if err := e.c.SendTurn(ctx, push.Turn{TurnID: "1", Text: "hi"}); !errors.Is(err, push.ErrNotReady) {
			t.Errorf("SendTurn before ready = %v, want ErrNotReady", err)
		}
		if err := e.c.SendReset(ctx); !errors.Is(err, push.ErrNotReady) {
			t.Errorf("SendReset before ready = %v", err)
		}
		if err := e.c.SendStop(ctx, []string{"1"}); !errors.Is(err, push.ErrNotReady) {
			t.Errorf("SendStop before ready = %v", err)
		}
		if err := e.c.SendPlayback(ctx, "1"); !errors.Is(err, push.ErrNotReady) {
			t.Errorf("SendPlayback before ready = %v", err)
		}
		e.c.SetVocabulary(push.Vocabulary{EmotionIDs: []string{"sad"}})
		synctest.Wait()
		if len(got) != 0 {
			t.Errorf("server got %d frames before ready", len(got))
		}
		if e.logs.count(push.EventPushStop) != 0 {
			t.Errorf("push.stop logged for a stop that did not go out")
		}
		e.close()
	})
}

func TestReadyWaitIsTenSecondsFromHello(t *testing.T) {
	bubble(t, func(t *testing.T) {
		closed := make(chan time.Time, 4)
		b := &bare{fn: func(_ int, c *websocket.Conn, _ push.Hello) {
			c.Read(context.Background())
			closed <- time.Now()
		}}
		e := newEnv(t, envOpts{handler: b})
		start := time.Now()
		time.Sleep(push.HelloWait - time.Millisecond)
		e.wantState(push.StateConnecting)
		if e.logs.count(push.EventReadyTimeout) != 0 {
			t.Fatal("ready timeout before 10 s")
		}
		time.Sleep(time.Millisecond)
		e.wantState(push.StateReconnecting)
		if n := e.logs.count(push.EventReadyTimeout); n != 1 {
			t.Fatalf("ws_ready_timeout lines = %d", n)
		}
		select {
		case at := <-closed:
			if d := at.Sub(start); d != push.HelloWait {
				t.Errorf("socket closed after %v, want %v", d, push.HelloWait)
			}
		default:
			t.Error("socket not closed at the hello wait")
		}
		last := e.rec.lastState()
		if !errors.Is(last.Err, push.ErrReadyTimeout) || last.RetryIn != time.Second {
			t.Errorf("state change = %+v", last)
		}
		e.close()
	})
}

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
		logs := e.logs.all(push.EventReconnect)
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
		if n := e.logs.count(push.EventReconnect); n != 0 {
			t.Errorf("ws_reconnect after 4401: %d", n)
		}
		if got := e.logs.all(push.EventClose); len(got) != 1 || got[0].Attrs["code"] != int64(4401) {
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
		if e.logs.count(push.EventNotConfigured) != 1 {
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
		opens := e.logs.all(push.EventOpen)
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
				n := e.logs.len()
				dials := len(e.Dials())
				states := len(e.rec.States())
				waits := len(e.rec.Waits())
				time.Sleep(24 * time.Hour)
				if e.logs.len() != n {
					t.Errorf("log lines after Close:\n%s", e.logs.dump())
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

func TestCloseSendsNormalClosure(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := &serverHooks{}
		e := newEnv(t, envOpts{server: pushserver.Config{Hooks: h.hooks()}})
		e.wantState(push.StateReady)
		e.c.Close()
		synctest.Wait()
		if d := h.get().discs; len(d) != 1 || d[0] != 1000 {
			t.Errorf("server saw close codes %v, want [1000]", d)
		}
		if last := e.rec.lastState(); last.To != push.StateDisconnected || last.From != push.StateReady {
			t.Errorf("last state = %+v", last)
		}
	})
}

func TestReplacedAndTooBigClosesAreRetried(t *testing.T) {
	for _, code := range []websocket.StatusCode{4409, websocket.StatusMessageTooBig, websocket.StatusGoingAway} {
		t.Run(code.String(), func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				e := newEnv(t, envOpts{})
				e.wantState(push.StateReady)
				e.srv.Kick(testChatID, code, "x")
				synctest.Wait()
				e.wantState(push.StateReconnecting)
				last := e.rec.lastState()
				if last.Code != int(code) || last.RetryIn != time.Second {
					t.Errorf("state change = %+v", last)
				}
				closes := e.logs.all(push.EventClose)
				if len(closes) != 1 || closes[0].Attrs["code"] != int64(code) {
					t.Errorf("ws_close = %+v", closes)
				}
				time.Sleep(time.Second)
				e.wantState(push.StateReady)
			})
		})
	}
}

func TestSocketReplacedByNewerHelloOfSameChat(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		// A second client with the same chat takes over; the first sees 4409.
		other, err := push.New(push.Config{Endpoint: func() string { return "http://backend.test" }, Key: func() string { return testKey },
			ChatID: testChatID, HTTPClient: pushserver.InMemoryClient(e.srv)})
		if err != nil {
			t.Fatal(err)
		}
		other.Start()
		synctest.Wait()
		if other.State() != push.StateReady {
			t.Fatalf("second client state = %v", other.State())
		}
		e.wantState(push.StateReconnecting)
		if code := e.rec.lastState().Code; code != 4409 {
			t.Errorf("close code = %d, want 4409", code)
		}
		other.Close()
	})
}

func TestLogEventsAndKeyNeverLogged(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{server: pushserver.Config{MaxTurnBytes: 1 << 20}})
		e.wantState(push.StateReady)
		if err := e.c.SendTurn(context.Background(), push.Turn{TurnID: "1", Images: []string{"data:image/png;base64,AAAA"}}); err != nil {
			t.Fatal(err)
		}
		e.srv.Kick(testChatID, websocket.StatusGoingAway, "bye")
		time.Sleep(time.Second)
		e.wantState(push.StateReady)
		for _, ev := range []string{push.EventOpen, push.EventReady, push.EventClose, push.EventReconnect} {
			if e.logs.count(ev) == 0 {
				t.Errorf("%s not logged", ev)
			}
		}
		if got := e.logs.all(push.EventReady)[0].Attrs["max_turn_bytes"]; got != int64(1<<20) {
			t.Errorf("ws_ready max_turn_bytes = %v", got)
		}
		dump := e.logs.dump() + e.slog.dump()
		if strings.Contains(dump, testKey) || strings.Contains(dump, "base64,AAAA") {
			t.Errorf("key or image data in logs:\n%s", dump)
		}
	})
}

func TestMaxTurnBytesRecordedFromReady(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{server: pushserver.Config{MaxTurnBytes: 3 << 20}})
		e.wantState(push.StateReady)
		if e.c.MaxTurnBytes() != 3<<20 || !e.c.AcceptsImages() {
			t.Errorf("MaxTurnBytes = %d, AcceptsImages = %v", e.c.MaxTurnBytes(), e.c.AcceptsImages())
		}
	})
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		if e.c.MaxTurnBytes() != push.MaxFrameBytes || e.c.AcceptsImages() {
			t.Errorf("without max_turn_bytes: MaxTurnBytes = %d, AcceptsImages = %v", e.c.MaxTurnBytes(), e.c.AcceptsImages())
		}
	})
}

func TestDialFailureIsRetried(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
		e := newEnv(t, envOpts{handler: h})
		e.wantState(push.StateReconnecting)
		if e.logs.count(push.EventOpenFailed) != 1 || e.logs.count(push.EventClose) != 0 {
			t.Errorf("logs:\n%s", e.logs.dump())
		}
		if last := e.rec.lastState(); last.Code != -1 || last.Err == nil {
			t.Errorf("state change = %+v", last)
		}
		e.close()
	})
}
