package push_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
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
		if e.logs.Count(push.EventPushStop) != 0 {
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
		if e.logs.Count(push.EventReadyTimeout) != 0 {
			t.Fatal("ready timeout before 10 s")
		}
		time.Sleep(time.Millisecond)
		e.wantState(push.StateReconnecting)
		if n := e.logs.Count(push.EventReadyTimeout); n != 1 {
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
				closes := e.logs.All(push.EventClose)
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
			if e.logs.Count(ev) == 0 {
				t.Errorf("%s not logged", ev)
			}
		}
		if got := e.logs.All(push.EventReady)[0].Attrs["max_turn_bytes"]; got != int64(1<<20) {
			t.Errorf("ws_ready max_turn_bytes = %v", got)
		}
		dump := e.logs.Dump() + e.slog.Dump()
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
		if e.logs.Count(push.EventOpenFailed) != 1 || e.logs.Count(push.EventClose) != 0 {
			t.Errorf("logs:\n%s", e.logs.Dump())
		}
		if last := e.rec.lastState(); last.Code != -1 || last.Err == nil {
			t.Errorf("state change = %+v", last)
		}
		e.close()
	})
}
