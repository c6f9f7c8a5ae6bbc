package push_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

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
		over := e.logs.all(push.EventFrameOversize)
		if len(over) != 1 || over[0].Attrs["direction"] != "in" || over[0].Attrs["bytes"] != int64(push.MaxFrameBytes+1) {
			t.Errorf("frame_oversize = %+v", over)
		}
		if e.logs.count(push.EventClose) != 0 || len(e.Dials()) != 1 {
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
		if e.logs.count(push.EventFrameOversize) != 0 {
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
		if got := e.logs.all(push.EventFrameOversize); len(got) != 1 || got[0].Attrs["bytes"] != int64(3*push.MaxFrameBytes) {
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
		if n := e.logs.count(push.EventParseFailed); n != 2 {
			t.Errorf("frame_parse_failed = %d, want 2 (text and binary)", n)
		}
		mal := e.logs.all(push.EventMalformed)
		if len(mal) != 2 || mal[0].Attrs["frame_type"] != "render" || mal[0].Attrs["field"] != "segments.speech" ||
			mal[1].Attrs["frame_type"] != "tool_status" || mal[1].Attrs["field"] != "tool_id" {
			t.Errorf("frame_malformed = %+v", mal)
		}
		if unk := e.logs.all(push.EventUnknown); len(unk) != 1 || unk[0].Attrs["frame_type"] != "telemetry" {
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
		if n := e.logs.count(push.EventBeforeReady); n != 2 {
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
		if got := e.logs.all(push.EventFrameOversize); len(got) != 1 || got[0].Attrs["direction"] != "out" || got[0].Attrs["frame_type"] != "playback" {
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
		if st := e.logs.all(push.EventPushStop); len(st) != 1 || st[0].Attrs["turns"] != int64(2) {
			t.Errorf("push.stop = %+v", st)
		}
	})
}

func TestTurnWaitEndsAfter240sWithoutFrames(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		if err := e.c.SendTurn(context.Background(), push.Turn{TurnID: "1"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(push.TurnFrameWait - time.Millisecond)
		synctest.Wait()
		if len(e.rec.Waits()) != 0 {
			t.Fatal("wait ended early")
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		w := e.rec.Waits()
		if len(w) != 1 || w[0] != (push.TurnWaitEnded{TurnID: "1", Rendered: false, Reason: push.WaitPassed}) {
			t.Fatalf("waits = %+v", w)
		}
		if st := e.logs.all(push.EventNetworkStall); len(st) != 1 || st[0].Attrs["stage"] != push.StagePushWait || st[0].Attrs["turn_id"] != "1" {
			t.Errorf("network_stall = %+v", st)
		}
		e.wantState(push.StateReady)
	})
}

func TestTurnWaitRestartsOnEveryFrameOfTheTurn(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		e.c.SendTurn(context.Background(), push.Turn{TurnID: "1"})
		frames := []push.Frame{
			push.Reasoning{TurnID: "1", Delta: "d"},
			push.ToolStatus{TurnID: "1", State: "running", ToolID: "x"},
			push.ErrorFrame{TurnID: "1", Message: "m"},
		}
		for _, f := range frames {
			time.Sleep(200 * time.Second)
			e.srv.Send(testChatID, f)
			synctest.Wait()
		}
		// Frames of another turn do not count.
		time.Sleep(200 * time.Second)
		e.srv.Send(testChatID, push.Reasoning{TurnID: "2", Delta: "d"})
		synctest.Wait()
		if len(e.rec.Waits()) != 0 {
			t.Fatal("wait ended although frames kept coming")
		}
		time.Sleep(40 * time.Second)
		synctest.Wait()
		if w := e.rec.Waits(); len(w) != 1 || w[0].Rendered {
			t.Errorf("waits = %+v", w)
		}
	})
}

func TestTurnWaitAfterFirstRenderIsPushTurnEnd(t *testing.T) {
	for _, first := range []push.Frame{push.Speech{TurnID: "1", Segments: []push.Segment{{Speech: "a"}}}, push.Render{TurnID: "1", Segments: []push.Segment{}}} {
		t.Run(first.FrameType(), func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				e := newEnv(t, envOpts{})
				e.wantState(push.StateReady)
				e.c.SendTurn(context.Background(), push.Turn{TurnID: "1"})
				e.srv.Send(testChatID, first)
				synctest.Wait()
				time.Sleep(push.TurnFrameWait)
				synctest.Wait()
				if w := e.rec.Waits(); len(w) != 1 || !w[0].Rendered || w[0].Reason != push.WaitPassed {
					t.Errorf("waits = %+v", w)
				}
				if st := e.logs.all(push.EventNetworkStall); len(st) != 1 || st[0].Attrs["stage"] != push.StagePushTurnEnd {
					t.Errorf("network_stall = %+v", st)
				}
			})
		})
	}
}

func TestTurnEndStopsTheWait(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		e.c.SendTurn(context.Background(), push.Turn{TurnID: "1"})
		e.srv.SendTurnEnd(testChatID, "1", nil)
		synctest.Wait()
		time.Sleep(time.Hour)
		e.srv.Kick(testChatID, websocket.StatusGoingAway, "x")
		synctest.Wait()
		if w := e.rec.Waits(); len(w) != 0 {
			t.Errorf("waits after turn_end = %+v", w)
		}
	})
}

func TestSocketLeavingReadyEndsRunningTurns(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		e.c.SendTurn(context.Background(), push.Turn{TurnID: "1"})
		e.c.SendTurn(context.Background(), push.Turn{TurnID: "2"})
		e.srv.SendRender(testChatID, push.Render{TurnID: "2", Segments: []push.Segment{{Speech: "x"}}})
		synctest.Wait()
		e.srv.Kick(testChatID, websocket.StatusInternalError, "crash")
		synctest.Wait()
		w := e.rec.Waits()
		if len(w) != 2 {
			t.Fatalf("waits = %+v", w)
		}
		byID := map[string]push.TurnWaitEnded{w[0].TurnID: w[0], w[1].TurnID: w[1]}
		if byID["1"].Rendered || !byID["2"].Rendered || byID["1"].Reason != push.SocketLeftReady {
			t.Errorf("waits = %+v", w)
		}
		stages := map[any]int{}
		for _, r := range e.logs.all(push.EventNetworkDrop) {
			stages[r.Attrs["stage"]]++
		}
		if stages[push.StagePushWait] != 1 || stages[push.StagePushTurnEnd] != 1 {
			t.Errorf("network_drop stages = %v", stages)
		}
		// The Handler learns the socket left ready before it learns which
		// turns that ended.
		o := e.rec.Order()
		if len(o) < 3 || o[len(o)-3] != "state reconnecting" || !strings.HasPrefix(o[len(o)-1], "wait ") {
			t.Errorf("order = %v, want the state change, then the two waits", o)
		}
		// Waits are not reported twice on a later close.
		time.Sleep(time.Hour)
		if len(e.rec.Waits()) != 2 {
			t.Error("turn reported twice")
		}
	})
}

func TestForgetTurnStopsTheWaitSilently(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		e.c.SendTurn(context.Background(), push.Turn{TurnID: "1"})
		e.c.ForgetTurn("1")
		time.Sleep(time.Hour)
		e.srv.Kick(testChatID, websocket.StatusGoingAway, "x")
		synctest.Wait()
		if w := e.rec.Waits(); len(w) != 0 {
			t.Errorf("waits = %+v", w)
		}
	})
}

func TestVocabularyResentOnlyWhenChangedWhileConnected(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := &serverHooks{}
		e := newEnv(t, envOpts{server: pushserver.Config{Hooks: h.hooks()}})
		e.wantState(push.StateReady)
		same := push.Vocabulary{EmotionIDs: []string{"neutral", "happy"}, MotionIDs: []string{"idle"}, EmotionTextMode: "free", EmotionTextMap: map[string]string{}}
		e.c.SetVocabulary(same)
		synctest.Wait()
		if n := len(h.get().vocabs); n != 0 {
			t.Fatalf("unchanged vocabulary resent (%d)", n)
		}
		v2 := push.Vocabulary{EmotionIDs: []string{"sad"}, MotionIDs: []string{}, EmotionTextMode: "enum", EmotionTextMap: map[string]string{"😆": "joyfully"}}
		e.c.SetVocabulary(v2)
		synctest.Wait()
		e.c.SetVocabulary(v2)
		synctest.Wait()
		if got := h.get().vocabs; len(got) != 1 || !got[0].Equal(v2) {
			t.Errorf("vocabulary frames = %+v", got)
		}
	})
}

func TestVocabularyChangedDuringHandshakeGoesOutAfterReady(t *testing.T) {
	bubble(t, func(t *testing.T) {
		readyNow := make(chan struct{})
		var order []string
		b := &bare{fn: func(_ int, c *websocket.Conn, h push.Hello) {
			<-readyNow
			writeFrame(t, c, push.Ready{ChatID: h.ChatID})
			order = append(order, "ready")
			for f := range drain(c) {
				order = append(order, f.FrameType())
			}
		}}
		e := newEnv(t, envOpts{handler: b})
		e.wantState(push.StateConnecting)
		v2 := push.Vocabulary{EmotionIDs: []string{"sleepy"}}
		e.c.SetVocabulary(v2)
		synctest.Wait()
		close(readyNow)
		e.wantState(push.StateReady)
		e.c.Close()
		if !reflect.DeepEqual(order, []string{"ready", "vocabulary"}) {
			t.Errorf("order = %v", order)
		}
	})
}

func TestVocabularyChangedWhileDisconnectedGoesInNextHello(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := &serverHooks{}
		e := newEnv(t, envOpts{server: pushserver.Config{Hooks: h.hooks()}})
		e.wantState(push.StateReady)
		e.srv.Kick(testChatID, websocket.StatusGoingAway, "x")
		synctest.Wait()
		v2 := push.Vocabulary{EmotionIDs: []string{"angry"}}
		e.c.SetVocabulary(v2)
		time.Sleep(time.Second)
		e.wantState(push.StateReady)
		got := h.get()
		if len(got.hellos) != 2 || !got.hellos[1].Vocabulary.Equal(v2) {
			t.Errorf("second hello vocabulary = %+v", got.hellos)
		}
		if len(got.vocabs) != 0 {
			t.Errorf("vocabulary frame sent for a change made while disconnected")
		}
	})
}

func TestVocabularyBurstEndsOnTheLatest(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := &serverHooks{}
		e := newEnv(t, envOpts{server: pushserver.Config{Hooks: h.hooks()}})
		e.wantState(push.StateReady)
		var last push.Vocabulary
		for i := 0; i < 20; i++ {
			last = push.Vocabulary{EmotionIDs: []string{fmt.Sprint("e", i)}}
			e.c.SetVocabulary(last)
		}
		synctest.Wait()
		got := h.get().vocabs
		if len(got) == 0 || !got[len(got)-1].Equal(last) {
			t.Errorf("last vocabulary frame = %+v", got)
		}
	})
}
