package push_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"yui/transport/push"
	"yui/transport/pushserver"

	"github.com/coder/websocket"
)

// The turn wait (240 s without a frame), the socket leaving ready, and the vocabulary resent.

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
		if st := e.logs.All(push.EventNetworkStall); len(st) != 1 || st[0].Attrs["stage"] != push.StagePushWait || st[0].Attrs["turn_id"] != "1" {
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
				if st := e.logs.All(push.EventNetworkStall); len(st) != 1 || st[0].Attrs["stage"] != push.StagePushTurnEnd {
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
		for _, r := range e.logs.All(push.EventNetworkDrop) {
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
