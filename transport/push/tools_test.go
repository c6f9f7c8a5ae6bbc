package push_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/coder/websocket"

	"yui/transport"
	"yui/transport/push"
)

// toolBare is a bare backend that sends tool_call frames and collects the
// client's tool_results with the (fake) time they arrived.
type toolBare struct {
	t       *testing.T
	mtb     int
	mu      sync.Mutex
	conn    *websocket.Conn
	results []timedResult
	ready   chan struct{}
}

type timedResult struct {
	push.ToolResult
	At time.Time
}

func newToolBare(t *testing.T, mtb int) (*toolBare, *bare) {
	tb := &toolBare{t: t, mtb: mtb, ready: make(chan struct{})}
	b := &bare{fn: func(n int, c *websocket.Conn, h push.Hello) {
		writeFrame(t, c, push.Ready{ChatID: h.ChatID, MaxTurnBytes: tb.mtb})
		tb.mu.Lock()
		tb.conn = c
		tb.mu.Unlock()
		if n == 1 {
			close(tb.ready)
		}
		for f := range drain(c) {
			if r, ok := f.(push.ToolResult); ok {
				tb.mu.Lock()
				tb.results = append(tb.results, timedResult{r, time.Now()})
				tb.mu.Unlock()
			}
		}
	}}
	return tb, b
}

func (tb *toolBare) call(id, turnID, name, args string) {
	tb.mu.Lock()
	c := tb.conn
	tb.mu.Unlock()
	writeRaw(c, fmt.Sprintf(`{"type":"tool_call","id":%q,"turn_id":%q,"name":%q,"arguments":%s}`, id, turnID, name, args))
}

func (tb *toolBare) Results() []timedResult {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]timedResult(nil), tb.results...)
}

func (tb *toolBare) result(t *testing.T, id string) timedResult {
	t.Helper()
	for _, r := range tb.Results() {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no tool_result for %s (have %+v)", id, tb.Results())
	return timedResult{}
}

// blockingTool runs until released or cancelled and records its runs.
type blockingTool struct {
	name    string
	wait    time.Duration
	mu      sync.Mutex
	started []string
	release chan struct{}
	answer  string
	images  []string
	dur     time.Duration
}

func (b *blockingTool) Schema() push.FunctionSchema { return push.FunctionSchema{Name: b.name} }
func (b *blockingTool) Wait() time.Duration {
	if b.wait > 0 {
		return b.wait
	}
	return push.ClientToolWait(b.name)
}
func (b *blockingTool) Validate(args json.RawMessage) error {
	var m map[string]any
	json.Unmarshal(args, &m)
	if _, ok := m["bad"]; ok {
		return push.InvalidField("bad")
	}
	if _, ok := m["need"]; ok {
		return push.MissingField("app")
	}
	return nil
}
func (b *blockingTool) Run(ctx context.Context, call transport.ToolCall) (string, []string, error) {
	b.mu.Lock()
	b.started = append(b.started, call.ID)
	b.mu.Unlock()
	if b.dur > 0 {
		select {
		case <-time.After(b.dur):
			return b.answer, b.images, nil
		case <-ctx.Done():
			return "", nil, ctx.Err()
		}
	}
	if b.release == nil {
		return b.answer, b.images, nil
	}
	select {
	case <-b.release:
		return b.answer, b.images, nil
	case <-ctx.Done():
		return "", nil, ctx.Err()
	}
}
func (b *blockingTool) Started() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.started...)
}

func toolEnv(t *testing.T, mtb int, tools ...push.Tool) (*env, *toolBare) {
	tb, b := newToolBare(t, mtb)
	e := newEnv(t, envOpts{handler: b, tools: tools})
	<-tb.ready
	e.wantState(push.StateReady)
	return e, tb
}

func TestToolCallRunsAndIsAnswered(t *testing.T) {
	bubble(t, func(t *testing.T) {
		var got transport.ToolCall
		look := transport.ToolFunc{Name: "look", RunFunc: func(_ context.Context, c transport.ToolCall) (string, []string, error) {
			got = c
			return `{"posture":"sitting"}`, nil, nil
		}}
		e, tb := toolEnv(t, 0, look)
		tb.call("c-1", "5", "look", `{"at":"body"}`)
		synctest.Wait()
		r := tb.result(t, "c-1")
		if r.TurnID != "5" || r.Result != `{"posture":"sitting"}` || r.Images != nil {
			t.Errorf("result = %+v", r)
		}
		if got.ID != "c-1" || string(got.Arguments) != `{"at":"body"}` {
			t.Errorf("run got %+v", got)
		}
		e.close()
	})
}

func TestToolCallsRunOneAtATimeInArrivalOrder(t *testing.T) {
	bubble(t, func(t *testing.T) {
		tool := &blockingTool{name: "body_action", dur: 3 * time.Second, answer: "ok"}
		e, tb := toolEnv(t, 0, tool)
		start := time.Now()
		for i := 1; i <= 3; i++ {
			tb.call(fmt.Sprint("c-", i), "1", "body_action", `{"action":"stand"}`)
		}
		time.Sleep(10 * time.Second)
		synctest.Wait()
		res := tb.Results()
		if len(res) != 3 {
			t.Fatalf("results = %+v", res)
		}
		for i, r := range res {
			if r.ID != fmt.Sprint("c-", i+1) || r.At.Sub(start) != time.Duration(i+1)*3*time.Second {
				t.Errorf("result %d = %s at %v", i, r.ID, r.At.Sub(start))
			}
		}
		e.close()
	})
}

func TestClientToolWaitsPerTool(t *testing.T) {
	for _, tc := range []struct {
		name string
		wait time.Duration
	}{
		{"body_action", 15 * time.Second},
		{"look", 2 * time.Second},
		{"rate_relation", 2 * time.Second},
		{"address_character", 2 * time.Second},
		{"browser", 32 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				tool := &blockingTool{name: tc.name, release: make(chan struct{})}
				e, tb := toolEnv(t, 0, tool)
				start := time.Now()
				tb.call("c-1", "1", tc.name, `{}`)
				time.Sleep(tc.wait - time.Millisecond)
				synctest.Wait()
				if len(tb.Results()) != 0 {
					t.Fatal("answered before the wait")
				}
				time.Sleep(time.Millisecond)
				synctest.Wait()
				r := tb.result(t, "c-1")
				if r.Result != push.ResultTimedOut(tc.wait) || r.At.Sub(start) != tc.wait {
					t.Errorf("result %q at %v", r.Result, r.At.Sub(start))
				}
				if !strings.HasPrefix(r.Result, "error: ") {
					t.Errorf("timeout answer %q", r.Result)
				}
				e.close()
			})
		})
	}
}

func TestToolWaitCountsFromWhenTheCallStartsRunning(t *testing.T) {
	bubble(t, func(t *testing.T) {
		body := &blockingTool{name: "body_action", dur: 10 * time.Second, answer: "ok"}
		look := &blockingTool{name: "look", dur: 1500 * time.Millisecond, answer: "seen"}
		e, tb := toolEnv(t, 0, body, look)
		start := time.Now()
		tb.call("c-1", "1", "body_action", `{}`)
		tb.call("c-2", "1", "look", `{}`) // queued 10 s; its 2 s wait starts then
		time.Sleep(time.Minute)
		if r := tb.result(t, "c-2"); r.Result != "seen" || r.At.Sub(start) != 11500*time.Millisecond {
			t.Errorf("queued call: %q at %v", r.Result, r.At.Sub(start))
		}
		e.close()
	})
}

func TestToolCallRejectedAtOnce(t *testing.T) {
	for _, tc := range []struct{ name, tool, args, want string }{
		{"unknown tool", "teleport", `{}`, "error: unknown tool"},
		{"missing field", "body_action", `{"need":1}`, "error: missing field app"},
		{"invalid field", "body_action", `{"bad":1}`, "error: invalid field bad"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				busy := &blockingTool{name: "body_action", release: make(chan struct{})}
				e, tb := toolEnv(t, 0, busy)
				tb.call("c-0", "1", "body_action", `{}`) // keeps the queue busy
				synctest.Wait()
				start := time.Now()
				tb.call("c-1", "1", tc.tool, tc.args)
				synctest.Wait()
				r := tb.result(t, "c-1")
				if r.Result != tc.want || r.At != start {
					t.Errorf("result %q at +%v, want %q at once", r.Result, r.At.Sub(start), tc.want)
				}
				if got := busy.Started(); len(got) != 1 {
					t.Errorf("rejected call ran: %v", got)
				}
				close(busy.release)
				e.close()
			})
		})
	}
}

func TestToolCallForStoppedTurnAnsweredAtOnce(t *testing.T) {
	bubble(t, func(t *testing.T) {
		tool := &blockingTool{name: "look", answer: "x"}
		e, tb := toolEnv(t, 0, tool)
		e.c.MarkStopped("9")
		tb.call("c-1", "9", "look", `{}`)
		synctest.Wait()
		if r := tb.result(t, "c-1"); r.Result != "error: turn stopped" {
			t.Errorf("result = %q", r.Result)
		}
		if len(tool.Started()) != 0 {
			t.Error("stopped turn's call ran")
		}
		e.close()
	})
}

func TestStopCancelsRunningAndQueuedCallsOfTheTurn(t *testing.T) {
	bubble(t, func(t *testing.T) {
		tool := &blockingTool{name: "body_action", release: make(chan struct{}), answer: "ok"}
		e, tb := toolEnv(t, 0, tool)
		tb.call("c-1", "9", "body_action", `{}`)
		tb.call("c-2", "9", "body_action", `{}`)
		tb.call("c-3", "8", "body_action", `{}`)
		synctest.Wait()
		e.c.SendStop(context.Background(), []string{"9"})
		synctest.Wait()
		if r := tb.result(t, "c-1"); r.Result != "error: turn stopped" {
			t.Errorf("running call = %q", r.Result)
		}
		if r := tb.result(t, "c-2"); r.Result != "error: turn stopped" {
			t.Errorf("queued call = %q", r.Result)
		}
		close(tool.release)
		synctest.Wait()
		if r := tb.result(t, "c-3"); r.Result != "ok" {
			t.Errorf("other turn's call = %q", r.Result)
		}
		if got := tool.Started(); len(got) != 2 || got[1] != "c-3" {
			t.Errorf("runs = %v", got)
		}
		e.close()
	})
}

func TestToolCallDuplicateIDDroppedWithLogLine(t *testing.T) {
	bubble(t, func(t *testing.T) {
		tool := &blockingTool{name: "look", release: make(chan struct{}), answer: "first"}
		e, tb := toolEnv(t, 0, tool)
		tb.call("c-1", "1", "look", `{}`)
		tb.call("c-2", "1", "look", `{}`)
		synctest.Wait()
		tb.call("c-1", "1", "look", `{}`) // repeats the running one
		tb.call("c-2", "1", "look", `{}`) // repeats the queued one
		synctest.Wait()
		if n := e.logs.Count(push.EventToolDuplicate); n != 2 {
			t.Errorf("tool_call_duplicate lines = %d", n)
		}
		close(tool.release)
		synctest.Wait()
		if res := tb.Results(); len(res) != 2 || res[0].Result != "first" {
			t.Errorf("results = %+v", res)
		}
		// Once answered, the id may be used again.
		tb.call("c-1", "1", "look", `{}`)
		synctest.Wait()
		if n := len(tb.Results()); n != 3 {
			t.Errorf("results after reuse = %d", n)
		}
		e.close()
	})
}

func TestToolCallUnreadableIsDroppedWithoutResult(t *testing.T) {
	bubble(t, func(t *testing.T) {
		tool := &blockingTool{name: "look", answer: "x"}
		e, tb := toolEnv(t, 0, tool)
		tb.mu.Lock()
		c := tb.conn
		tb.mu.Unlock()
		writeRaw(c, `{"type":"tool_call","id":7,"turn_id":"1","name":"look","arguments":{}}`)
		writeRaw(c, `{"type":"tool_call","id":"c-2","turn_id":"1","name":"look","arguments":"at=body"}`)
		synctest.Wait()
		if n := len(tb.Results()); n != 0 {
			t.Errorf("unreadable calls answered: %d", n)
		}
		mal := e.logs.All(push.EventMalformed)
		if len(mal) != 2 || mal[0].Attrs["frame_type"] != "tool_call" || mal[0].Attrs["field"] != "id" || mal[1].Attrs["field"] != "arguments" {
			t.Errorf("frame_malformed = %+v", mal)
		}
		e.close()
	})
}

func TestToolRunErrorIsAnsweredWithErrorPrefix(t *testing.T) {
	bubble(t, func(t *testing.T) {
		tools := []push.Tool{
			transport.ToolFunc{Name: "look", RunFunc: func(context.Context, transport.ToolCall) (string, []string, error) {
				return "", nil, errors.New("permission denied")
			}},
			transport.ToolFunc{Name: "body_action", RunFunc: func(context.Context, transport.ToolCall) (string, []string, error) {
				return "", nil, errors.New("error: not_found")
			}},
		}
		e, tb := toolEnv(t, 0, tools...)
		tb.call("c-1", "1", "look", `{}`)
		tb.call("c-2", "1", "body_action", `{}`)
		synctest.Wait()
		if r := tb.result(t, "c-1"); r.Result != "error: permission denied" {
			t.Errorf("c-1 = %q", r.Result)
		}
		if r := tb.result(t, "c-2"); r.Result != "error: not_found" {
			t.Errorf("c-2 = %q", r.Result)
		}
		e.close()
	})
}
