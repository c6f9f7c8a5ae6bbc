package push_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"

	"github.com/coder/websocket"
)

// Tool results: the size bound, images fitted, results after the socket left ready, the turn wait, observers and close.

func TestToolResultTooLarge(t *testing.T) {
	big := strings.Repeat("z", push.MaxFrameBytes)
	img := "data:image/png;base64," + strings.Repeat("A", 300<<10)
	for _, tc := range []struct {
		name   string
		mtb    int
		result string
		images []string
		want   string
		nimg   int
	}{
		{"text over 256 KiB", 0, big, nil, "error: result too large", 0},
		{"text over 256 KiB even with max_turn_bytes", 4 << 20, big, nil, "error: result too large", 0},
		{"images over 256 KiB without max_turn_bytes", 0, "ok", []string{img}, "error: result too large", 0},
		{"images under max_turn_bytes", 1 << 20, "ok", []string{img}, "ok", 1},
		{"images over max_turn_bytes", 1 << 20, "ok", []string{img, img, img, img}, "error: result too large", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				tool := &blockingTool{name: "look", answer: tc.result, images: tc.images}
				e, tb := toolEnv(t, tc.mtb, tool)
				tb.call("c-1", "1", "look", `{}`)
				synctest.Wait()
				r := tb.result(t, "c-1")
				if r.Result != tc.want || len(r.Images) != tc.nimg {
					t.Errorf("result %.40q with %d images", r.Result, len(r.Images))
				}
				if tc.want == push.ResultTooLarge && e.logs.Count(push.EventToolTooLarge) != 1 {
					t.Error("tool_result_too_large not logged")
				}
				e.close()
			})
		})
	}
}

type halvingFitter struct{ rooms []int }

func (f *halvingFitter) FitImages(images []string, room int) ([]string, error) {
	f.rooms = append(f.rooms, room)
	out := make([]string, len(images))
	for i := range images {
		out[i] = "data:image/jpeg;base64," + strings.Repeat("B", room/len(images)-40)
	}
	return out, nil
}

func TestToolResultImagesFittedToTheBudget(t *testing.T) {
	bubble(t, func(t *testing.T) {
		img := "data:image/png;base64," + strings.Repeat("A", 200<<10)
		tool := &blockingTool{name: "look", answer: "ok", images: []string{img, img}}
		fit := &halvingFitter{}
		tb, b := newToolBare(t, 0)
		e := newEnv(t, envOpts{handler: b, tools: []push.Tool{tool}, fitter: fit})
		<-tb.ready
		tb.call("c-1", "1", "look", `{}`)
		synctest.Wait()
		r := tb.result(t, "c-1")
		if r.Result != "ok" || len(r.Images) != 2 || !strings.HasPrefix(r.Images[0], "data:image/jpeg") {
			t.Fatalf("result %q, %d images", r.Result, len(r.Images))
		}
		enc, _ := push.Encode(r.ToolResult)
		if len(enc) > push.MaxFrameBytes || len(fit.rooms) != 1 {
			t.Errorf("fitted frame %d bytes, fitter calls %v", len(enc), fit.rooms)
		}
		e.close()
	})
}

func TestToolResultDroppedWhenSocketLeftReady(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := &serverHooks{}
		var ran sync.WaitGroup
		ran.Add(1)
		look := transport.ToolFunc{Name: "look", RunFunc: func(ctx context.Context, _ transport.ToolCall) (string, []string, error) {
			ran.Done()
			<-ctx.Done()
			return "late", nil, nil
		}}
		e := newEnv(t, envOpts{server: pushserver.Config{Hooks: h.hooks()}, tools: []push.Tool{look}})
		e.wantState(push.StateReady)
		done := make(chan string, 1)
		go func() {
			r, _, _ := e.srv.CallTool(context.Background(), testChatID, "1", "look", nil)
			done <- r
		}()
		ran.Wait()
		e.srv.Kick(testChatID, websocket.StatusGoingAway, "x")
		synctest.Wait()
		if r := <-done; r != pushserver.ResultClientDisconnected {
			t.Errorf("backend answer = %q", r)
		}
		if n := e.logs.Count(push.EventToolDropped); n != 1 {
			t.Errorf("tool_result_dropped = %d\n%s", n, e.logs.Dump())
		}
	})
}

func TestToolCallRestartsTheTurnWait(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{tools: []push.Tool{transport.ToolFunc{Name: "look"}}})
		e.wantState(push.StateReady)
		e.c.SendTurn(context.Background(), push.Turn{TurnID: "1"})
		time.Sleep(200 * time.Second)
		if r, _, err := e.srv.CallTool(context.Background(), testChatID, "1", "look", nil); r != "ok" || err != nil {
			t.Fatalf("CallTool = %q, %v", r, err)
		}
		time.Sleep(200 * time.Second)
		synctest.Wait()
		if len(e.rec.Waits()) != 0 {
			t.Error("tool_call did not restart the frame wait")
		}
	})
}

func TestNewRejectsBadConfig(t *testing.T) {
	ep := func() string { return "http://x" }
	for _, tc := range []struct {
		name string
		cfg  push.Config
	}{
		{"no endpoint", push.Config{ChatID: "c"}},
		{"blank chat id", push.Config{Endpoint: ep, ChatID: " "}},
		{"unnamed tool", push.Config{Endpoint: ep, ChatID: "c", Tools: []push.Tool{transport.ToolFunc{}}}},
		{"duplicate tool", push.Config{Endpoint: ep, ChatID: "c", Tools: []push.Tool{transport.ToolFunc{Name: "a"}, transport.ToolFunc{Name: "a"}}}},
	} {
		if _, err := push.New(tc.cfg); err == nil {
			t.Errorf("%s: New succeeded", tc.name)
		}
	}
}

func TestToolObserverSeesEveryAnsweredCallAndTheResultSent(t *testing.T) {
	bubble(t, func(t *testing.T) {
		big := strings.Repeat("z", push.MaxFrameBytes)
		busy := &blockingTool{name: "body_action", release: make(chan struct{}), answer: "ok"}
		huge := &blockingTool{name: "look", answer: big}
		slow := &blockingTool{name: "query", release: make(chan struct{})}
		e, tb := toolEnv(t, 0, busy, huge, slow)
		e.c.MarkStopped("9")
		tb.call("c-0", "1", "body_action", `{}`) // runs until released
		synctest.Wait()
		tb.call("c-0", "1", "body_action", `{}`) // repeated id: dropped, not reported
		tb.call("c-1", "1", "teleport", `{}`)    // unknown tool
		tb.call("c-2", "1", "body_action", `{"need":1}`)
		tb.call("c-3", "1", "body_action", `{"bad":1}`)
		tb.call("c-4", "9", "look", `{}`) // stopped turn
		synctest.Wait()
		close(busy.release)
		synctest.Wait()
		tb.call("c-5", "1", "look", `{}`) // result too large
		synctest.Wait()
		tb.call("c-6", "1", "query", `{}`) // times out on the client
		time.Sleep(push.ClientToolWait("query"))
		synctest.Wait()
		calls, results := e.rec.Observed()
		var callIDs []string
		for _, c := range calls {
			callIDs = append(callIDs, c.ID)
		}
		if got := strings.Join(callIDs, " "); got != "c-0 c-1 c-2 c-3 c-4 c-5 c-6" {
			t.Errorf("observed calls %q", got)
		}
		sent := map[string]string{}
		for _, r := range tb.Results() {
			sent[r.ID] = r.Result
		}
		got := map[string]string{}
		for _, r := range results {
			got[r.ID] = r.Result
		}
		want := map[string]string{"c-0": "ok", "c-1": "error: unknown tool", "c-2": "error: missing field app",
			"c-3": "error: invalid field bad", "c-4": "error: turn stopped", "c-5": push.ResultTooLarge,
			"c-6": push.ResultTimedOut(push.ClientToolWait("query"))}
		for id, w := range want {
			if got[id] != w || sent[id] != w {
				t.Errorf("%s: observed %.40q, sent %.40q, want %q", id, got[id], sent[id], w)
			}
		}
		if len(results) != len(want) {
			t.Errorf("observed %d results, want %d", len(results), len(want))
		}
		close(slow.release)
		e.close()
	})
}

func TestCloseEndsRunningTurnsSilently(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.wantState(push.StateReady)
		if err := e.c.SendTurn(context.Background(), push.Turn{TurnID: "1"}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		e.close()
		if w := e.rec.Waits(); len(w) != 0 {
			t.Errorf("Close reported turn waits %+v", w)
		}
		if n := e.logs.Count(push.EventNetworkDrop); n != 0 {
			t.Errorf("Close logged network_drop:\n%s", e.logs.Dump())
		}
	})
}

// stubbornTool ignores cancellation: each Run takes dur however it is told
// to stop, and records how many Runs are live at once.
type stubbornTool struct {
	name    string
	dur     time.Duration
	mu      sync.Mutex
	live    int
	maxLive int
	runs    int
}

func (b *stubbornTool) Schema() push.FunctionSchema         { return push.FunctionSchema{Name: b.name} }
func (b *stubbornTool) Wait() time.Duration                 { return push.ClientToolWait(b.name) }
func (b *stubbornTool) Validate(args json.RawMessage) error { return nil }
func (b *stubbornTool) Run(ctx context.Context, call transport.ToolCall) (string, []string, error) {
	b.mu.Lock()
	b.live++
	b.runs++
	b.maxLive = max(b.maxLive, b.live)
	b.mu.Unlock()
	time.Sleep(b.dur)
	b.mu.Lock()
	b.live--
	b.mu.Unlock()
	return "ok", nil, nil
}

func TestARunThatOutlivesItsWaitStillHoldsTheNextCallBack(t *testing.T) {
	bubble(t, func(t *testing.T) {
		tool := &stubbornTool{name: "look", dur: 5 * time.Second} // look waits 2 s
		e, tb := toolEnv(t, 0, tool)
		start := time.Now()
		tb.call("c-1", "1", "look", `{}`)
		tb.call("c-2", "1", "look", `{}`)
		time.Sleep(20 * time.Second)
		synctest.Wait()
		r1, r2 := tb.result(t, "c-1"), tb.result(t, "c-2")
		if r1.Result != push.ResultTimedOut(2*time.Second) || r1.At.Sub(start) != 2*time.Second {
			t.Fatalf("c-1 %q at %v, want the timeout answer at 2 s", r1.Result, r1.At.Sub(start))
		}
		// c-2 starts when c-1's Run returns (5 s), and times out 2 s later.
		if r2.At.Sub(start) != 7*time.Second {
			t.Fatalf("c-2 answered at %v, want 7 s (after c-1's Run returned)", r2.At.Sub(start))
		}
		tool.mu.Lock()
		defer tool.mu.Unlock()
		if tool.maxLive != 1 || tool.runs != 2 {
			t.Fatalf("%d Runs live at once (%d runs), want one at a time", tool.maxLive, tool.runs)
		}
		e.close()
	})
}
