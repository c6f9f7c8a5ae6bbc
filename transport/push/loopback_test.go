package push_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// These tests run over real loopback TCP (httptest on 127.0.0.1), without
// fake time: they wait on events, never on durations.

// hangLimit bounds the waits of these real-socket tests: each wait ends at
// the state or frame it awaits, so the limit only stops a hang.
const hangLimit = 60 * time.Second

type chanHandler struct {
	frames chan push.Frame
	states chan push.StateChange
}

func newChanHandler() *chanHandler {
	return &chanHandler{frames: make(chan push.Frame, 64), states: make(chan push.StateChange, 64)}
}

func (h *chanHandler) HandleEvent(e transport.Event)         { h.frames <- push.FrameOf(e) }
func (h *chanHandler) HandleState(c push.StateChange)        { h.states <- c }
func (h *chanHandler) HandleTurnWait(push.TurnWaitEnded)     {}
func (h *chanHandler) HandleToolCall(transport.ToolCall)     {}
func (h *chanHandler) HandleToolResult(transport.ToolResult) {}

func (h *chanHandler) waitState(t *testing.T, st push.State) push.StateChange {
	t.Helper()
	deadline := time.After(hangLimit)
	for {
		select {
		case c := <-h.states:
			if c.To == st {
				return c
			}
		case <-deadline:
			t.Fatalf("no %v state", st)
		}
	}
}

func (h *chanHandler) nextFrame(t *testing.T) push.Frame {
	t.Helper()
	select {
	case f := <-h.frames:
		return f
	case <-time.After(hangLimit):
		t.Fatal("no frame")
		return nil
	}
}

func TestLoopbackTurnRenderToolCallRoundTrip(t *testing.T) {
	turns := make(chan push.Turn, 1)
	srv := pushserver.New(pushserver.Config{Key: testKey, MaxTurnBytes: 1 << 20, Hooks: pushserver.Hooks{
		Turn: func(_ string, tr push.Turn) { turns <- tr },
	}})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer srv.Close()
	h := newChanHandler()
	look := transport.ToolFunc{Name: "look", RunFunc: func(context.Context, transport.ToolCall) (string, []string, error) {
		return "ok", []string{"data:image/png;base64,AAAA"}, nil
	}}
	c, err := push.New(push.Config{Endpoint: func() string { return hs.URL + "/" }, Key: func() string { return testKey },
		ChatID: testChatID, Handler: h, Tools: []push.Tool{look}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Start()
	if h.waitState(t, push.StateReady); c.MaxTurnBytes() != 1<<20 {
		t.Errorf("MaxTurnBytes() = %d after ready", c.MaxTurnBytes())
	}
	if f := h.nextFrame(t); f.FrameType() != push.TypeDelegations {
		t.Errorf("first frame = %#v", f)
	}
	if err := c.SendTurn(context.Background(), push.Turn{TurnID: "1", Text: "How did the tests go?", Images: []string{"data:image/png;base64,BB"}}); err != nil {
		t.Fatal(err)
	}
	tr := <-turns
	if tr.Text != "How did the tests go?" || len(tr.Images) != 1 {
		t.Errorf("turn = %+v", tr)
	}
	res, imgs, err := srv.CallTool(context.Background(), testChatID, "1", "look", map[string]string{"at": "screen"})
	if res != "ok" || len(imgs) != 1 || err != nil {
		t.Errorf("CallTool = %q %v %v", res, imgs, err)
	}
	srv.SendRender(testChatID, push.Render{TurnID: "1", Segments: []push.Segment{{Speech: "All green."}}})
	srv.SendTurnEnd(testChatID, "1", &push.Usage{InputTokens: 1, OutputTokens: 2, TotalTokens: 3})
	if f := h.nextFrame(t); f.FrameType() != push.TypeRender {
		t.Errorf("frame = %#v", f)
	}
	if f := h.nextFrame(t); f.(push.TurnEnd).Usage.TotalTokens != 3 {
		t.Errorf("frame = %#v", f)
	}
}

func TestLoopbackOversizeInboundKeepsSocket(t *testing.T) {
	b := &bare{fn: func(_ int, c *websocket.Conn, h push.Hello) {
		ctx := context.Background()
		c.Write(ctx, websocket.MessageText, []byte(`{"type":"ready","chat_id":"`+h.ChatID+`"}`))
		c.Write(ctx, websocket.MessageText, []byte(renderOfSize("big", 2*push.MaxFrameBytes)))
		c.Write(ctx, websocket.MessageText, []byte(`{"type":"turn_end","turn_id":"after"}`))
		c.Read(ctx)
	}}
	hs := httptest.NewServer(b)
	defer hs.Close()
	h := newChanHandler()
	logs := &logRecorder{}
	c, _ := push.New(push.Config{Endpoint: func() string { return hs.URL }, ChatID: testChatID, Handler: h, Logger: newLogger(logs)})
	defer c.Close()
	c.Start()
	h.waitState(t, push.StateReady)
	if f := h.nextFrame(t); push.TurnIDOf(f) != "after" {
		t.Errorf("frame = %#v", f)
	}
	if c.State() != push.StateReady || logs.Count(push.EventFrameOversize) != 1 {
		t.Errorf("state %v, oversize lines %d", c.State(), logs.Count(push.EventFrameOversize))
	}
}

func TestLoopbackOversizeOutboundRefusedByServerWith1009(t *testing.T) {
	// A client that skipped its own cap would be closed with 1009; ours
	// never sends such a frame, so drive the server with a raw socket.
	srv := pushserver.New(pushserver.Config{Key: testKey})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer srv.Close()
	ctx := context.Background()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	hello, _ := push.Encode(push.Hello{Key: testKey, ChatID: testChatID})
	c.Write(ctx, websocket.MessageText, hello)
	c.Read(ctx)
	c.Read(ctx)
	big, _ := push.Encode(push.Turn{TurnID: "1", Text: strings.Repeat("x", push.MaxFrameBytes)})
	c.Write(ctx, websocket.MessageText, big)
	if _, _, err := c.Read(ctx); websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Errorf("err = %v", err)
	}
}
