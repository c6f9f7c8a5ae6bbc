package pushserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/coder/websocket"

	"yui/transport/push"
	"yui/transport/pushserver"
)

const key = "k-123"

// raw is a test client speaking the wire directly.
type raw struct {
	t    *testing.T
	c    *websocket.Conn
	in   chan push.Frame
	code chan int
}

func dial(t *testing.T, s *pushserver.Server) *websocket.Conn {
	t.Helper()
	c, _, err := websocket.Dial(context.Background(), "ws://backend.test/ws", &websocket.DialOptions{HTTPClient: pushserver.InMemoryClient(s)})
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(-1)
	return c
}

// connect dials, sends hello (extra fields merged) and starts reading.
func connect(t *testing.T, s *pushserver.Server, chatID string, extra map[string]any) *raw {
	t.Helper()
	c := dial(t, s)
	hello := map[string]any{"type": "hello", "key": key, "chat_id": chatID, "accepts": []string{"error"},
		"vocabulary": map[string]any{"emotion_ids": []string{"neutral"}, "motion_ids": []string{}, "emotion_text_mode": "free", "emotion_text_map": map[string]string{}}}
	for k, v := range extra {
		if v == nil {
			delete(hello, k)
		} else {
			hello[k] = v
		}
	}
	b, _ := json.Marshal(hello)
	if err := c.Write(context.Background(), websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
	return start(t, c)
}

func start(t *testing.T, c *websocket.Conn) *raw {
	r := &raw{t: t, c: c, in: make(chan push.Frame, 256), code: make(chan int, 1)}
	go func() {
		defer close(r.in)
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				r.code <- int(websocket.CloseStatus(err))
				return
			}
			f, err := push.DecodeInbound(b)
			if err != nil {
				t.Errorf("server sent an unreadable frame %s: %v", b, err)
				continue
			}
			r.in <- f
		}
	}()
	return r
}

// frames returns what arrived so far.
func (r *raw) frames() []push.Frame {
	synctest.Wait()
	var out []push.Frame
	for {
		select {
		case f, ok := <-r.in:
			if !ok {
				return out
			}
			out = append(out, f)
		default:
			return out
		}
	}
}

func (r *raw) next() push.Frame {
	r.t.Helper()
	fs := r.frames()
	if len(fs) != 1 {
		r.t.Fatalf("want one frame, got %+v", fs)
	}
	return fs[0]
}

func (r *raw) send(v any) {
	var b []byte
	switch v := v.(type) {
	case string:
		b = []byte(v)
	case push.Frame:
		b, _ = push.Encode(v)
	default:
		b, _ = json.Marshal(v)
	}
	r.c.Write(context.Background(), websocket.MessageText, b)
}

// closed waits for the socket to end and returns its close code.
func (r *raw) closed() int {
	r.t.Helper()
	synctest.Wait()
	select {
	case c := <-r.code:
		return c
	default:
		r.t.Fatal("socket still open")
		return 0
	}
}

func newServer(t *testing.T, cfg pushserver.Config) *pushserver.Server {
	if cfg.Key == "" {
		cfg.Key = key
	}
	s := pushserver.New(cfg)
	t.Cleanup(func() { s.Close() })
	return s
}

func bubble(t *testing.T, f func(t *testing.T)) { synctest.Test(t, f) }

func TestWrongKeyCloses4401AndSendsNothing(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		r := connect(t, s, "yui-1", map[string]any{"key": "nope"})
		if code := r.closed(); code != 4401 {
			t.Errorf("close code = %d", code)
		}
		if fs := r.frames(); len(fs) != 0 {
			t.Errorf("frames sent on a wrong key: %+v", fs)
		}
	})
}

func TestHelloWithoutChatIDCloses4401(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		r := connect(t, s, "", map[string]any{"chat_id": nil})
		if code := r.closed(); code != 4401 {
			t.Errorf("close code = %d", code)
		}
	})
}

func TestFirstFrameNotHelloIsRefused(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		c := dial(t, s)
		r := start(t, c)
		r.send(push.Turn{TurnID: "1"})
		if code := r.closed(); code != int(websocket.StatusPolicyViolation) {
			t.Errorf("close code = %d", code)
		}
	})
}

func TestNoHelloWithinTheWaitCloses(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		r := start(t, dial(t, s))
		time.Sleep(push.HelloWait - time.Millisecond)
		synctest.Wait()
		select {
		case <-r.code:
			t.Fatal("closed before the hello wait")
		default:
		}
		time.Sleep(time.Millisecond)
		if code := r.closed(); code != int(websocket.StatusPolicyViolation) {
			t.Errorf("close code = %d", code)
		}
	})
}

func TestReadyThenDelegationsRightAfter(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		s.SetDelegations("yui-1", []push.Delegation{{ID: "d-1", Title: "Sort", StartedAt: 5, State: "running"}})
		r := connect(t, s, "yui-1", nil)
		fs := r.frames()
		want := []push.Frame{push.Ready{ChatID: "yui-1"}, push.Delegations{Items: []push.Delegation{{ID: "d-1", Title: "Sort", StartedAt: 5, State: "running"}}}}
		if !reflect.DeepEqual(fs, want) {
			t.Errorf("frames = %#v", fs)
		}
	})
}

func TestReadyStatesMaxTurnBytes(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{MaxTurnBytes: 8 << 20})
		r := connect(t, s, "yui-1", nil)
		if fs := r.frames(); len(fs) < 1 || fs[0] != (push.Ready{ChatID: "yui-1", MaxTurnBytes: 8 << 20}) {
			t.Errorf("frames = %+v", fs)
		}
	})
}

func TestNewerHelloReplacesOlderSocketWith4409(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		a := connect(t, s, "yui-1", nil)
		a.frames()
		other := connect(t, s, "yui-2", nil)
		other.frames()
		b := connect(t, s, "yui-1", nil)
		if code := a.closed(); code != 4409 {
			t.Errorf("old socket close code = %d", code)
		}
		b.frames()
		s.SendReasoning("yui-1", "1", "d")
		if f := b.next(); f != (push.Reasoning{TurnID: "1", Delta: "d"}) {
			t.Errorf("new socket got %+v", f)
		}
		if fs := other.frames(); len(fs) != 0 {
			t.Errorf("other chat got %+v", fs)
		}
	})
}

func TestOversizeInboundFrameCloses1009(t *testing.T) {
	for _, tc := range []struct {
		name  string
		mtb   int
		frame push.Frame
		size  int
		want  int
	}{
		{"playback over 256 KiB", 0, push.Playback{}, push.MaxFrameBytes + 1, 1009},
		{"playback at 256 KiB", 0, push.Playback{}, push.MaxFrameBytes, 0},
		{"turn over 256 KiB without max_turn_bytes", 0, push.Turn{}, push.MaxFrameBytes + 1, 1009},
		{"turn under max_turn_bytes", 1 << 20, push.Turn{}, 900 << 10, 0},
		{"turn over max_turn_bytes", 1 << 20, push.Turn{}, 1<<20 + 1, 1009},
		{"playback over 256 KiB with max_turn_bytes", 1 << 20, push.Playback{}, push.MaxFrameBytes + 1, 1009},
		{"text tool_result over 256 KiB with max_turn_bytes", 1 << 20, push.ToolResult{}, push.MaxFrameBytes + 1, 1009},
		{"image tool_result under max_turn_bytes", 1 << 20, push.ToolResult{Images: []string{"x"}}, 900 << 10, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				s := newServer(t, pushserver.Config{MaxTurnBytes: tc.mtb})
				r := connect(t, s, "yui-1", nil)
				r.frames()
				r.send(sized(tc.frame, tc.size))
				synctest.Wait()
				if tc.want == 0 {
					if !s.Connected("yui-1") {
						t.Error("socket closed for a frame within its limit")
					}
					return
				}
				if code := r.closed(); code != tc.want {
					t.Errorf("close code = %d", code)
				}
			})
		})
	}
}

// sized pads a frame's text field to an exact encoded size.
func sized(f push.Frame, size int) string {
	b, _ := push.Encode(f)
	pad := strings.Repeat("p", size-len(b))
	switch f := f.(type) {
	case push.Playback:
		f.TurnID = pad
		b, _ = push.Encode(f)
	case push.Turn:
		f.TurnID = "1"
		b, _ = push.Encode(f)
		f.Text = strings.Repeat("p", size-len(b))
		b, _ = push.Encode(f)
	case push.ToolResult:
		f.ID = "c"
		b, _ = push.Encode(f)
		f.Result = strings.Repeat("p", size-len(b))
		b, _ = push.Encode(f)
	}
	if len(b) != size {
		panic(fmt.Sprintf("sized %d != %d", len(b), size))
	}
	return string(b)
}

func TestHooksReceiveClientFrames(t *testing.T) {
	bubble(t, func(t *testing.T) {
		var mu sync.Mutex
		var got []string
		note := func(s string) { mu.Lock(); got = append(got, s); mu.Unlock() }
		s := newServer(t, pushserver.Config{Hooks: pushserver.Hooks{
			Connected:    func(id string, h push.Hello) { note("connected " + id + " " + h.Vocabulary.EmotionIDs[0]) },
			Turn:         func(id string, tr push.Turn) { note("turn " + tr.TurnID + " " + tr.Text) },
			Stop:         func(id string, ids []string) { note("stop " + strings.Join(ids, ",")) },
			Reset:        func(id string) { note("reset") },
			Playback:     func(id string, p push.Playback) { note("playback " + p.TurnID + " " + p.Ended) },
			Vocabulary:   func(id string, v push.Vocabulary) { note("vocabulary " + v.EmotionTextMode) },
			Disconnected: func(id string, code int) { note(fmt.Sprint("disconnected ", code)) },
		}})
		r := connect(t, s, "yui-1", nil)
		r.frames()
		r.send(push.Turn{TurnID: "1", Text: "hi"})
		r.send(push.Stop{TurnIDs: []string{"1"}})
		r.send(push.Playback{TurnID: "0", Ended: "failed"})
		r.send(push.VocabularyFrame{Vocabulary: push.Vocabulary{EmotionTextMode: "enum"}})
		r.send(`{"type":"mystery"}`)
		r.send(push.Reset{})
		synctest.Wait()
		r.c.Close(websocket.StatusNormalClosure, "")
		synctest.Wait()
		want := []string{"connected yui-1 neutral", "turn 1 hi", "stop 1", "playback 0 failed", "vocabulary enum", "reset", "disconnected 1000"}
		mu.Lock()
		defer mu.Unlock()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("hooks = %q", got)
		}
	})
}

func TestSendRefusesOversizeAndClientFrames(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		connect(t, s, "yui-1", nil).frames()
		err := s.SendError("yui-1", "1", strings.Repeat("m", push.MaxFrameBytes))
		if !errors.Is(err, push.ErrOversize) {
			t.Errorf("oversize error frame: %v", err)
		}
		if err := s.Send("yui-1", push.Turn{TurnID: "1"}); err == nil {
			t.Error("client frame accepted")
		}
		if err := s.Send("yui-1", push.ToolCall{ID: "x"}); err == nil {
			t.Error("tool_call via Send accepted")
		}
	})
}

func TestServeOverRealLoopback(t *testing.T) {
	s := pushserver.New(pushserver.Config{Key: key})
	hs := httptest.NewServer(s)
	defer hs.Close()
	defer s.Close()
	ctx := context.Background()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	b, _ := push.Encode(push.Hello{Key: key, ChatID: "yui-1", Accepts: []string{"error"}})
	c.Write(ctx, websocket.MessageText, b)
	_, got, err := c.Read(ctx)
	if err != nil || string(got) != `{"type":"ready","chat_id":"yui-1"}` {
		t.Fatalf("ready = %s, %v", got, err)
	}
	c.Read(ctx) // delegations
	c.SetReadLimit(-1)
	big := sized(push.Playback{}, push.MaxFrameBytes+1)
	c.Write(ctx, websocket.MessageText, []byte(big))
	_, _, err = c.Read(ctx)
	if code := websocket.CloseStatus(err); code != websocket.StatusMessageTooBig {
		t.Errorf("close = %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
