package push_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/coder/websocket"

	"yui/transport"
	"yui/transport/push"
)

// A backend may reuse a call id as soon as it has read that call's
// tool_result: the id is no longer queued or running (rule 3), so the
// next call under it must be answered. Thousands of calls back to back
// make the gap between "result sent" and "id released" show if it exists.
func TestToolCallIDReusedRightAfterItsResultIsAnswered(t *testing.T) {
	bubble(t, func(t *testing.T) {
		const calls = 3000
		var mu sync.Mutex
		answered := 0
		done := make(chan struct{})
		b := &bare{fn: func(_ int, c *websocket.Conn, h push.Hello) {
			writeFrame(t, c, push.Ready{ChatID: h.ChatID})
			frames := drain(c)
			for i := range calls {
				writeRaw(c, fmt.Sprintf(`{"type":"tool_call","id":"c-1","turn_id":"7","name":"look","arguments":{"n":%d}}`, i))
				for f := range frames {
					if r, ok := f.(push.ToolResult); ok && r.ID == "c-1" {
						mu.Lock()
						answered++
						mu.Unlock()
						break
					}
				}
			}
			close(done)
			<-frames
		}}
		look := transport.ToolFunc{Name: "look", RunFunc: func(context.Context, transport.ToolCall) (string, []string, error) {
			return "ok", nil, nil
		}}
		e := newEnv(t, envOpts{handler: b, tools: []push.Tool{look}})
		select {
		case <-done:
		case <-time.After(time.Hour):
		}
		mu.Lock()
		n := answered
		mu.Unlock()
		if n != calls {
			t.Fatalf("%d of %d calls reusing one id were answered; %d %s lines", n, calls,
				e.logs.Count(push.EventToolDuplicate), push.EventToolDuplicate)
		}
		if d := e.logs.Count(push.EventToolDuplicate); d != 0 {
			t.Fatalf("%d %s lines for ids whose call was already answered", d, push.EventToolDuplicate)
		}
		e.close()
	})
}

// neverTool's Run ignores its context and never returns until released.
type neverTool struct {
	mu      sync.Mutex
	started []string
	release chan struct{}
}

func (n *neverTool) Schema() push.FunctionSchema    { return push.FunctionSchema{Name: "look"} }
func (n *neverTool) Wait() time.Duration            { return push.ClientToolWait("look") }
func (n *neverTool) Validate(json.RawMessage) error { return nil }
func (n *neverTool) Run(_ context.Context, call transport.ToolCall) (string, []string, error) {
	n.mu.Lock()
	n.started = append(n.started, call.ID)
	n.mu.Unlock()
	if call.ID == "c-1" {
		<-n.release
	}
	return "ok", nil, nil
}

// A Run that never returns is answered at its wait, then abandoned
// ToolAbandonAfter later with a log line, and the next call runs.
func TestARunThatNeverReturnsIsAbandonedAndTheQueueMovesOn(t *testing.T) {
	bubble(t, func(t *testing.T) {
		tool := &neverTool{release: make(chan struct{})}
		e, tb := toolEnv(t, 0, tool)
		start := time.Now()
		tb.call("c-1", "1", "look", `{}`)
		tb.call("c-2", "1", "look", `{}`)
		time.Sleep(push.ToolAbandonAfter + time.Minute)
		synctest.Wait()
		r1, r2 := tb.result(t, "c-1"), tb.result(t, "c-2")
		wait := push.ClientToolWait("look")
		if r1.Result != push.ResultTimedOut(wait) || r1.At.Sub(start) != wait {
			t.Fatalf("c-1 %q at %v, want the timeout answer at %v", r1.Result, r1.At.Sub(start), wait)
		}
		if r2.Result != "ok" || r2.At.Sub(start) != wait+push.ToolAbandonAfter {
			t.Fatalf("c-2 %q at %v, want ok at %v (c-1 abandoned %v after its answer)", r2.Result, r2.At.Sub(start),
				wait+push.ToolAbandonAfter, push.ToolAbandonAfter)
		}
		ab := e.logs.All(push.EventToolAbandoned)
		if len(ab) != 1 || ab[0].Attrs["id"] != "c-1" || ab[0].Attrs["name"] != "look" {
			t.Fatalf("abandon lines %+v, want one for c-1", ab)
		}
		close(tool.release)
		e.close()
	})
}

// A flood of tool calls cannot queue without bound: past
// MaxQueuedToolCalls a call is refused at once, and immediate answers to a
// backend that does not read them hold the read loop back instead of
// piling up goroutines.
func TestAToolCallFloodIsBounded(t *testing.T) {
	bubble(t, func(t *testing.T) {
		tool := &neverTool{release: make(chan struct{})} // c-1 runs until released
		e, tb := toolEnv(t, 0, tool)
		for i := 1; i <= 1000; i++ {
			tb.call(fmt.Sprint("c-", i), "1", "look", `{}`)
		}
		synctest.Wait()
		refused := 0
		for _, r := range tb.Results() {
			if r.Result == push.ResultTooManyCalls {
				refused++
			}
		}
		// c-1 runs, 64 wait behind it, the rest are refused.
		if want := 1000 - 1 - push.MaxQueuedToolCalls; refused != want {
			t.Fatalf("%d calls refused, want %d", refused, want)
		}
		if n := e.logs.Count(push.EventToolRefused); n != refused {
			t.Fatalf("%d %s lines", n, push.EventToolRefused)
		}
		close(tool.release)
		e.close()
	})
}

// A backend that sends calls and never reads: the immediate answers in
// flight stay bounded (they used to be one goroutine each).
func TestImmediateAnswersToABackendThatDoesNotReadAreBounded(t *testing.T) {
	bubble(t, func(t *testing.T) {
		var sent atomic.Int64
		b := &bare{fn: func(_ int, c *websocket.Conn, h push.Hello) {
			writeFrame(t, c, push.Ready{ChatID: h.ChatID})
			for i := range 5000 { // never reads the answers
				if writeRaw(c, fmt.Sprintf(`{"type":"tool_call","id":"c-%d","turn_id":"1","name":"nope"}`, i)) != nil {
					return
				}
				sent.Add(1)
			}
		}}
		e := newEnv(t, envOpts{handler: b})
		base := runtime.NumGoroutine()
		synctest.Wait()
		if g := runtime.NumGoroutine() - base; g > push.MaxPendingAnswers+16 {
			t.Fatalf("%d more goroutines with %d calls sent and no answer read", g, sent.Load())
		}
		if s := sent.Load(); s >= 5000 {
			t.Fatalf("the client read all %d calls while its answers could not go out", s)
		}
		e.close()
	})
}
