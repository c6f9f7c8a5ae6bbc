package pushserver_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/coder/websocket"

	"yui/transport/push"
	"yui/transport/pushserver"
)

var declaredTools = []push.ToolSchema{
	{Type: "function", Function: push.FunctionSchema{Name: "look"}},
	{Type: "function", Function: push.FunctionSchema{Name: "body_action"}},
	{Type: "function", Function: push.FunctionSchema{Name: "rate_relation"}},
	{Type: "function", Function: push.FunctionSchema{Name: "address_character"}},
	{Type: "function", Function: push.FunctionSchema{Name: "browser"}},
}

type callOut struct {
	result string
	images []string
	err    error
	at     time.Time
}

func call(s *pushserver.Server, chatID, turnID, name string, args any) <-chan callOut {
	ch := make(chan callOut, 1)
	go func() {
		r, imgs, err := s.CallTool(context.Background(), chatID, turnID, name, args)
		ch <- callOut{r, imgs, err, time.Now()}
	}()
	return ch
}

func got(t *testing.T, ch <-chan callOut) callOut {
	t.Helper()
	synctest.Wait()
	select {
	case o := <-ch:
		return o
	default:
		t.Fatal("call not answered")
		return callOut{}
	}
}

func pending(t *testing.T, ch <-chan callOut) {
	t.Helper()
	synctest.Wait()
	select {
	case o := <-ch:
		t.Fatalf("call answered early: %+v", o)
	default:
	}
}

func toolClient(t *testing.T, s *pushserver.Server, chatID string) *raw {
	r := connect(t, s, chatID, map[string]any{"tools": declaredTools})
	r.frames()
	return r
}

func TestCallToolRoundTrip(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		r := toolClient(t, s, "yui-1")
		out := call(s, "yui-1", "7", "look", map[string]string{"at": "screen"})
		tc, ok := r.next().(push.ToolCall)
		if !ok || tc.TurnID != "7" || tc.Name != "look" || string(tc.Arguments) != `{"at":"screen"}` || tc.ID == "" {
			t.Fatalf("tool_call = %#v", tc)
		}
		r.send(push.ToolResult{ID: tc.ID, TurnID: "7", Result: "ok", Images: []string{"data:image/png;base64,AA"}})
		o := got(t, out)
		if o.result != "ok" || len(o.images) != 1 || o.err != nil {
			t.Errorf("answer = %+v", o)
		}
	})
}

func TestCallToolOneInFlightPerChat(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		r := toolClient(t, s, "yui-1")
		o2 := toolClient(t, s, "yui-2")
		first := call(s, "yui-1", "1", "look", nil)
		synctest.Wait()
		second := call(s, "yui-1", "1", "body_action", nil)
		other := call(s, "yui-2", "1", "look", nil)
		fs := r.frames()
		if len(fs) != 1 || fs[0].(push.ToolCall).Name != "look" {
			t.Fatalf("frames = %+v (second call sent while the first is in flight)", fs)
		}
		if fo := o2.frames(); len(fo) != 1 {
			t.Errorf("other chat blocked: %+v", fo)
		}
		r.send(push.ToolResult{ID: fs[0].(push.ToolCall).ID, TurnID: "1", Result: "a"})
		if o := got(t, first); o.result != "a" {
			t.Errorf("first = %+v", o)
		}
		tc := r.next().(push.ToolCall)
		if tc.Name != "body_action" {
			t.Errorf("second = %+v", tc)
		}
		r.send(push.ToolResult{ID: tc.ID, TurnID: "1", Result: "b"})
		if o := got(t, second); o.result != "b" {
			t.Errorf("second = %+v", o)
		}
		_ = other
	})
}

func TestBackendToolWaitsPerTool(t *testing.T) {
	for _, tc := range []struct {
		name string
		wait time.Duration
		want string
	}{
		{"body_action", 20 * time.Second, "error: no reply from the client within 20 s"},
		{"look", 7 * time.Second, "error: no reply from the client within 7 s"},
		{"rate_relation", 7 * time.Second, "error: no reply from the client within 7 s"},
		{"address_character", 7 * time.Second, "error: no reply from the client within 7 s"},
		{"browser", 40 * time.Second, "error: no reply from the client within 40 s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				s := newServer(t, pushserver.Config{})
				r := toolClient(t, s, "yui-1")
				start := time.Now()
				out := call(s, "yui-1", "1", tc.name, nil)
				time.Sleep(tc.wait - time.Millisecond)
				pending(t, out)
				time.Sleep(time.Millisecond)
				o := got(t, out)
				if o.result != tc.want || o.at.Sub(start) != tc.wait {
					t.Errorf("answer %q at %v", o.result, o.at.Sub(start))
				}
				// A late result for the expired id is ignored.
				tcall := r.frames()[0].(push.ToolCall)
				r.send(push.ToolResult{ID: tcall.ID, TurnID: "1", Result: "late"})
				synctest.Wait()
			})
		})
	}
}

func TestBackendWaitCountsFromTheSend(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		r := toolClient(t, s, "yui-1")
		first := call(s, "yui-1", "1", "body_action", nil)
		synctest.Wait()
		second := call(s, "yui-1", "1", "look", nil) // waits for the slot 5 s
		time.Sleep(5 * time.Second)
		tc := r.frames()[0].(push.ToolCall)
		r.send(push.ToolResult{ID: tc.ID, TurnID: "1", Result: "ok"})
		got(t, first)
		sentAt := time.Now()
		time.Sleep(7*time.Second - time.Millisecond)
		pending(t, second)
		time.Sleep(time.Millisecond)
		if o := got(t, second); o.at.Sub(sentAt) != 7*time.Second {
			t.Errorf("second answered %v after its send", o.at.Sub(sentAt))
		}
	})
}

func TestSocketCloseAnswersWaitingAndInFlightCalls(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		r := toolClient(t, s, "yui-1")
		inflight := call(s, "yui-1", "1", "look", nil)
		synctest.Wait()
		waiting := call(s, "yui-1", "2", "look", nil)
		synctest.Wait()
		r.c.Close(websocket.StatusNormalClosure, "")
		if o := got(t, inflight); o.result != "error: client disconnected" {
			t.Errorf("in flight = %+v", o)
		}
		if o := got(t, waiting); o.result != "error: client disconnected" {
			t.Errorf("waiting = %+v", o)
		}
		// Never sent later, not even to the next socket.
		r2 := toolClient(t, s, "yui-1")
		if fs := r2.frames(); len(fs) != 0 {
			t.Errorf("later socket got %+v", fs)
		}
	})
}

func TestSocketReplacementAnswersCalls(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		toolClient(t, s, "yui-1")
		inflight := call(s, "yui-1", "1", "look", nil)
		synctest.Wait()
		waiting := call(s, "yui-1", "1", "look", nil)
		synctest.Wait()
		r2 := toolClient(t, s, "yui-1")
		for _, ch := range []<-chan callOut{inflight, waiting} {
			if o := got(t, ch); o.result != "error: client disconnected" {
				t.Errorf("answer = %+v", o)
			}
		}
		if fs := r2.frames(); len(fs) != 0 {
			t.Errorf("replacement socket got %+v", fs)
		}
	})
}

func TestStopAnswersTheTurnsCallsOnly(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		r := toolClient(t, s, "yui-1")
		inflight := call(s, "yui-1", "9", "look", nil)
		synctest.Wait()
		waitingStopped := call(s, "yui-1", "9", "look", nil)
		synctest.Wait()
		waitingOther := call(s, "yui-1", "10", "look", nil)
		synctest.Wait()
		first := r.frames()
		r.send(push.Stop{TurnIDs: []string{"9"}})
		for _, ch := range []<-chan callOut{inflight, waitingStopped} {
			if o := got(t, ch); o.result != "error: turn stopped" {
				t.Errorf("stopped turn's call = %+v", o)
			}
		}
		// The other turn's call now goes out; the stopped ones never do.
		fs := r.frames()
		if len(first) != 1 || len(fs) != 1 || fs[0].(push.ToolCall).TurnID != "10" {
			t.Fatalf("frames = %+v then %+v", first, fs)
		}
		// A late result for the stopped call is ignored.
		r.send(push.ToolResult{ID: first[0].(push.ToolCall).ID, TurnID: "9", Result: "late"})
		r.send(push.ToolResult{ID: fs[0].(push.ToolCall).ID, TurnID: "10", Result: "fine"})
		if o := got(t, waitingOther); o.result != "fine" {
			t.Errorf("other turn = %+v", o)
		}
		if o := got(t, call(s, "yui-1", "9", "look", nil)); o.result != "error: turn stopped" {
			t.Errorf("call for a stopped turn = %+v", o)
		}
	})
}

func TestToolResultForUnknownIDIgnored(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		r := toolClient(t, s, "yui-1")
		out := call(s, "yui-1", "1", "look", nil)
		tc := r.next().(push.ToolCall)
		r.send(push.ToolResult{ID: "c-nope", TurnID: "1", Result: "wrong"})
		pending(t, out)
		r.send(push.ToolResult{ID: tc.ID, TurnID: "1", Result: "right"})
		if o := got(t, out); o.result != "right" {
			t.Errorf("answer = %+v", o)
		}
	})
}

func TestCallToolWithoutClientOrDeclaration(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		if o := got(t, call(s, "yui-1", "1", "look", nil)); o.result != "error: client disconnected" || o.err != nil {
			t.Errorf("no client = %+v", o)
		}
		r := connect(t, s, "yui-1", nil) // declares no tools
		r.frames()
		if o := got(t, call(s, "yui-1", "1", "look", nil)); !errors.Is(o.err, pushserver.ErrNotDeclared) {
			t.Errorf("undeclared = %+v", o)
		}
		if fs := r.frames(); len(fs) != 0 {
			t.Errorf("tool_call sent to a client that declared nothing: %+v", fs)
		}
		r2 := toolClient(t, s, "yui-1")
		if o := got(t, call(s, "yui-1", "1", "look", []int{1})); o.err == nil {
			t.Errorf("non-object arguments accepted: %+v", o)
		}
		if fs := r2.frames(); len(fs) != 0 {
			t.Errorf("frames = %+v", fs)
		}
	})
}

func TestCallToolContextEnds(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		r := toolClient(t, s, "yui-1")
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, _, err := s.CallTool(ctx, "yui-1", "1", "look", nil)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v", err)
		}
		// The slot is free again.
		out := call(s, "yui-1", "1", "look", nil)
		fs := r.frames()
		if len(fs) != 2 {
			t.Fatalf("frames = %+v", fs)
		}
		r.send(push.ToolResult{ID: fs[1].(push.ToolCall).ID, Result: "ok"})
		if o := got(t, out); o.result != "ok" {
			t.Errorf("after cancel = %+v", o)
		}
	})
}

func TestServerCloseAnswersCalls(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := pushserver.New(pushserver.Config{Key: key})
		r := toolClient(t, s, "yui-1")
		out := call(s, "yui-1", "1", "look", nil)
		synctest.Wait()
		s.Close()
		if o := got(t, out); o.result != "error: client disconnected" {
			t.Errorf("answer = %+v", o)
		}
		if code := r.closed(); code != int(websocket.StatusGoingAway) {
			t.Errorf("close code = %d", code)
		}
	})
}

func TestManyChatsCallConcurrently(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		var wg sync.WaitGroup
		for i := 0; i < 5; i++ {
			id := fmt.Sprint("yui-", i)
			r := toolClient(t, s, id)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for f := range r.in {
					if tc, ok := f.(push.ToolCall); ok {
						r.send(push.ToolResult{ID: tc.ID, TurnID: tc.TurnID, Result: id})
					}
				}
			}()
		}
		outs := map[string]<-chan callOut{}
		for i := 0; i < 5; i++ {
			id := fmt.Sprint("yui-", i)
			outs[id] = call(s, id, "1", "look", nil)
		}
		for id, ch := range outs {
			if o := got(t, ch); o.result != id {
				t.Errorf("%s got %q", id, o.result)
			}
		}
		s.Close()
		wg.Wait()
	})
}
