package push_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/coder/websocket"

	"yui/transport/push"
	"yui/transport/pushserver"
)

// readyBare answers hello with ready and then runs script with the socket;
// it keeps the socket open (reading) after script returns.
func readyBare(t *testing.T, ready push.Ready, script func(c *websocket.Conn, got <-chan push.Frame)) *bare {
	return &bare{fn: func(_ int, c *websocket.Conn, h push.Hello) {
		ready.ChatID = h.ChatID
		writeFrame(t, c, ready)
		got := drain(c)
		script(c, got)
		for range got {
		}
	}}
}

func renderOfSize(turnID string, size int) string {
	head := fmt.Sprintf(`{"type":"render","turn_id":%q,"segments":[{"speech":"`, turnID)
	tail := `"}]}`
	return head + strings.Repeat("a", size-len(head)-len(tail)) + tail
}

func TestInboundOversizeDroppedWithoutClosing(t *testing.T) {
	bubble(t, func(t *testing.T) {
		b := readyBare(t, push.Ready{}, func(c *websocket.Conn, _ <-chan push.Frame) {
			writeRaw(c, renderOfSize("big", push.MaxFrameBytes+1))
			writeRaw(c, `{"type":"render","turn_id":"after","segments":[]}`)
		})
		e := newEnv(t, envOpts{handler: b})
		e.wantState(push.StateReady)
		fr := e.rec.Frames()
		if len(fr) != 1 || push.TurnIDOf(fr[0]) != "after" {
			t.Fatalf("frames = %+v", fr)
		}
		over := e.logs.All(push.EventFrameOversize)
		if len(over) != 1 || over[0].Attrs["direction"] != "in" || over[0].Attrs["bytes"] != int64(push.MaxFrameBytes+1) {
			t.Errorf("frame_oversize = %+v", over)
		}
		if e.logs.Count(push.EventClose) != 0 || len(e.Dials()) != 1 {
			t.Error("socket closed over an oversized frame")
		}
		e.close()
	})
}

func TestInboundFrameOfExactlyTheLimitIsRead(t *testing.T) {
	bubble(t, func(t *testing.T) {
		b := readyBare(t, push.Ready{}, func(c *websocket.Conn, _ <-chan push.Frame) {
			writeRaw(c, renderOfSize("exact", push.MaxFrameBytes))
		})
		e := newEnv(t, envOpts{handler: b})
		e.wantState(push.StateReady)
		if fr := e.rec.Frames(); len(fr) != 1 || push.TurnIDOf(fr[0]) != "exact" {
			t.Fatalf("frames = %d", len(fr))
		}
		if e.logs.Count(push.EventFrameOversize) != 0 {
			t.Error("oversize logged for a frame at the limit")
		}
		e.close()
	})
}

func TestInboundOversizeFragmentedFrameDropped(t *testing.T) {
	bubble(t, func(t *testing.T) {
		b := readyBare(t, push.Ready{}, func(c *websocket.Conn, _ <-chan push.Frame) {
			w, _ := c.Writer(context.Background(), websocket.MessageText)
			msg := renderOfSize("big", 3*push.MaxFrameBytes)
			for i := 0; i < len(msg); i += 4096 {
				w.Write([]byte(msg[i:min(i+4096, len(msg))]))
			}
			w.Close()
			writeRaw(c, `{"type":"turn_end","turn_id":"after"}`)
		})
		e := newEnv(t, envOpts{handler: b})
		e.wantState(push.StateReady)
		if fr := e.rec.Frames(); len(fr) != 1 || push.TurnIDOf(fr[0]) != "after" {
			t.Fatalf("frames = %+v", fr)
		}
		if got := e.logs.All(push.EventFrameOversize); len(got) != 1 || got[0].Attrs["bytes"] != int64(3*push.MaxFrameBytes) {
			t.Errorf("frame_oversize = %+v", got)
		}
		e.close()
	})
}

func TestParseFailedMalformedUnknownAreDroppedAndLogged(t *testing.T) {
	bubble(t, func(t *testing.T) {
		b := readyBare(t, push.Ready{}, func(c *websocket.Conn, _ <-chan push.Frame) {
			writeRaw(c, `not json`)
			writeRaw(c, `{"type":"render","turn_id":"1","segments":[{"speech":42}]}`)
			writeRaw(c, `{"type":"tool_status","turn_id":"1","state":"done"}`)
			writeRaw(c, `{"type":"telemetry","cpu":3}`)
			c.Write(context.Background(), websocket.MessageBinary, []byte{1, 2, 3})
			writeRaw(c, `{"type":"turn_end","turn_id":"1"}`)
		})
		e := newEnv(t, envOpts{handler: b})
		e.wantState(push.StateReady)
		if fr := e.rec.Frames(); len(fr) != 1 || fr[0].FrameType() != push.TypeTurnEnd {
			t.Fatalf("frames = %+v", fr)
		}
		if n := e.logs.Count(push.EventParseFailed); n != 2 {
			t.Errorf("frame_parse_failed = %d, want 2 (text and binary)", n)
		}
		mal := e.logs.All(push.EventMalformed)
		if len(mal) != 2 || mal[0].Attrs["frame_type"] != "render" || mal[0].Attrs["field"] != "segments.speech" ||
			mal[1].Attrs["frame_type"] != "tool_status" || mal[1].Attrs["field"] != "tool_id" {
			t.Errorf("frame_malformed = %+v", mal)
		}
		if unk := e.logs.All(push.EventUnknown); len(unk) != 1 || unk[0].Attrs["frame_type"] != "telemetry" {
			t.Errorf("frame_unknown = %+v", unk)
		}
		e.wantState(push.StateReady)
		e.close()
	})
}

func TestBackendFramesDeliveredTypedInOrder(t *testing.T) {
	bubble(t, func(t *testing.T) {
		want := []push.Frame{
			push.Delegations{Items: []push.Delegation{}},
			push.Reasoning{TurnID: "1", Delta: "thinking"},
			push.ToolStatus{TurnID: "1", State: "running", ToolID: "read_file"},
			push.Speech{TurnID: "1", Segments: []push.Segment{{Speech: "All green."}}},
			push.Render{TurnID: "1", Source: "pushserver", Segments: []push.Segment{{Cues: []push.Cue{{EmotionID: "happy"}}, Speech: "All green."}}},
			push.ErrorFrame{TurnID: "2", Message: "Provider returned 429"},
			push.TurnEnd{TurnID: "1", Usage: &push.Usage{InputTokens: 1, OutputTokens: 2, TotalTokens: 3}},
		}
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		for _, f := range want[1:] {
			if err := e.srv.Send(testChatID, f); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		if got := e.rec.Frames(); !reflect.DeepEqual(got, want) {
			t.Errorf("frames:\n got %#v\nwant %#v", got, want)
		}
	})
}

func TestFramesBeforeReadyAreDropped(t *testing.T) {
	bubble(t, func(t *testing.T) {
		b := &bare{fn: func(_ int, c *websocket.Conn, h push.Hello) {
			writeRaw(c, `{"type":"render","turn_id":"early","segments":[]}`)
			writeRaw(c, `{"type":"tool_call","id":"c","turn_id":"early","name":"look","arguments":{}}`)
			writeFrame(t, c, push.Ready{ChatID: h.ChatID})
			for range drain(c) {
			}
		}}
		e := newEnv(t, envOpts{handler: b})
		e.wantState(push.StateReady)
		if n := len(e.rec.Frames()); n != 0 {
			t.Errorf("frames before ready delivered: %d", n)
		}
		if n := e.logs.Count(push.EventBeforeReady); n != 2 {
			t.Errorf("frame_before_ready = %d", n)
		}
		e.close()
	})
}

func TestOutboundOversizeNeverSent(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := &serverHooks{}
		e := newEnv(t, envOpts{server: pushserver.Config{Hooks: h.hooks()}})
		e.wantState(push.StateReady)
		err := e.c.SendPlayback(context.Background(), strings.Repeat("9", push.MaxFrameBytes))
		var oe *push.OversizeError
		if !errors.Is(err, push.ErrOversize) || !errors.As(err, &oe) || oe.Limit != push.MaxFrameBytes {
			t.Fatalf("err = %v", err)
		}
		if got := e.logs.All(push.EventFrameOversize); len(got) != 1 || got[0].Attrs["direction"] != "out" || got[0].Attrs["frame_type"] != "playback" {
			t.Errorf("frame_oversize = %+v", got)
		}
		synctest.Wait()
		if len(h.get().playbacks) != 0 {
			t.Error("oversized frame reached the server")
		}
		e.wantState(push.StateReady)
	})
}

func turnOfSize(id string, size int) push.Turn {
	t := push.Turn{TurnID: id, ClientContext: "cc"}
	b, _ := push.Encode(t)
	t.Text = strings.Repeat("x", size-len(b))
	return t
}

func TestTurnCapIs256KiBWithoutMaxTurnBytes(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := &serverHooks{}
		e := newEnv(t, envOpts{server: pushserver.Config{Hooks: h.hooks()}})
		e.wantState(push.StateReady)
		if err := e.c.SendTurn(context.Background(), turnOfSize("1", push.MaxFrameBytes+1)); !errors.Is(err, push.ErrOversize) {
			t.Errorf("over the cap: %v", err)
		}
		if err := e.c.SendTurn(context.Background(), turnOfSize("2", push.MaxFrameBytes)); err != nil {
			t.Errorf("at the cap: %v", err)
		}
		synctest.Wait()
		if tr := h.get().turns; len(tr) != 1 || tr[0].TurnID != "2" {
			t.Errorf("server turns = %d", len(tr))
		}
		if len(e.rec.Waits()) != 0 {
			t.Error("refused turn reported through HandleTurnWait")
		}
	})
}

func TestTurnCapIsMaxTurnBytesWhenStated(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := &serverHooks{}
		const mtb = 600 << 10
		e := newEnv(t, envOpts{server: pushserver.Config{MaxTurnBytes: mtb, Hooks: h.hooks()}})
		e.wantState(push.StateReady)
		big := turnOfSize("1", mtb)
		if err := e.c.SendTurn(context.Background(), big); err != nil {
			t.Errorf("at max_turn_bytes: %v", err)
		}
		var oe *push.OversizeError
		if err := e.c.SendTurn(context.Background(), turnOfSize("2", mtb+1)); !errors.As(err, &oe) || oe.Limit != mtb {
			t.Errorf("over max_turn_bytes: %v", err)
		}
		synctest.Wait()
		if tr := h.get().turns; len(tr) != 1 {
			t.Errorf("server turns = %d", len(tr))
		}
		e.wantState(push.StateReady)
	})
}

func TestTurnImagesNeedMaxTurnBytes(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		err := e.c.SendTurn(context.Background(), push.Turn{TurnID: "1", Images: []string{"data:image/png;base64,AA"}})
		if !errors.Is(err, push.ErrImagesNotAccepted) {
			t.Errorf("err = %v", err)
		}
	})
	bubble(t, func(t *testing.T) {
		h := &serverHooks{}
		e := newEnv(t, envOpts{server: pushserver.Config{MaxTurnBytes: 1 << 20, Hooks: h.hooks()}})
		e.wantState(push.StateReady)
		if err := e.c.SendTurn(context.Background(), push.Turn{TurnID: "1", Images: []string{"data:image/png;base64,AA", "data:image/jpeg;base64,BB"}}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if tr := h.get().turns; len(tr) != 1 || len(tr[0].Images) != 2 || tr[0].Images[0] != "data:image/png;base64,AA" {
			t.Errorf("turns = %+v", tr)
		}
	})
}

func TestSendHonoursADoneContextAndClosedClient(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := e.c.SendReset(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("SendReset(cancelled) = %v", err)
		}
		if err := e.c.SendTurn(ctx, push.Turn{TurnID: "1"}); !errors.Is(err, context.Canceled) {
			t.Errorf("SendTurn(cancelled) = %v", err)
		}
		e.wantState(push.StateReady) // a done context never closes the socket
		e.c.Close()
		if err := e.c.SendReset(context.Background()); !errors.Is(err, push.ErrClosed) {
			t.Errorf("after Close = %v", err)
		}
	})
}

func TestClientFramesReachTheServer(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := &serverHooks{}
		e := newEnv(t, envOpts{server: pushserver.Config{Hooks: h.hooks()}})
		e.wantState(push.StateReady)
		ctx := context.Background()
		if err := e.c.SendTurn(ctx, push.Turn{TurnID: "10", ClientContext: "<client_context>\n</client_context>", Text: "hi"}); err != nil {
			t.Fatal(err)
		}
		if err := e.c.SendStop(ctx, []string{"10", "11"}); err != nil {
			t.Fatal(err)
		}
		if err := e.c.SendReset(ctx); err != nil {
			t.Fatal(err)
		}
		if err := e.c.SendPlayback(ctx, "9"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		got := h.get()
		if len(got.turns) != 1 || got.turns[0].Text != "hi" || len(got.stops) != 1 || !reflect.DeepEqual(got.stops[0], []string{"10", "11"}) ||
			got.resets != 1 || len(got.playbacks) != 1 || got.playbacks[0] != (push.Playback{TurnID: "9", Ended: "failed"}) {
			t.Errorf("server saw turns %+v stops %v resets %d playbacks %+v", got.turns, got.stops, got.resets, got.playbacks)
		}
		if st := e.logs.All(push.EventPushStop); len(st) != 1 || st[0].Attrs["turns"] != int64(2) {
			t.Errorf("push.stop = %+v", st)
		}
	})
}
