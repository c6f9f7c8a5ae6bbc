package responses_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"yui/transport"
	"yui/transport/internal/request"
	"yui/transport/internal/wiretest"
)

func countingLook(ran *atomic.Int64) transport.Tool {
	return transport.ToolFunc{Name: "look", RunFunc: func(context.Context, transport.ToolCall) (string, []string, error) {
		ran.Add(1)
		return "ok", nil, nil
	}}
}

// More than MaxCallsPerRound function calls in one response fail the turn
// and none runs; the calls the wire holds stop at the bound.
func TestTooManyCallsFailTheTurn(t *testing.T) {
	var ran atomic.Int64
	e := newEnv(t, nil, []transport.Tool{countingLook(&ran)}, func(n int, w http.ResponseWriter, r *http.Request) {
		var evs []string
		for i := range request.MaxCallsPerRound + 50 {
			evs = append(evs, ev("response.output_item.added", fmt.Sprintf(`"item":{"type":"function_call","id":"fc%d","call_id":"c%d","name":"look","arguments":"{}"}`, i, i)))
		}
		wiretest.SSE(w, append(evs, completed("r"))...)
	})
	e.turn("1", "look a lot")
	got := e.rec.Got()
	if ran.Load() != 0 || got[len(got)-2] != "error " || e.be.Requests() != 1 {
		t.Fatalf("ran %d, requests %d, lines %q", ran.Load(), e.be.Requests(), got[max(0, len(got)-3):])
	}
}

// Arguments streamed past MaxCallArguments are dropped: the call is
// answered "error: arguments too large" without running, and the backend
// hears it on the round trip.
func TestOversizeArgumentsAreRefusedNotRun(t *testing.T) {
	var ran atomic.Int64
	piece, _ := json.Marshal(strings.Repeat("x", 8<<10))
	e := newEnv(t, nil, []transport.Tool{countingLook(&ran)}, func(n int, w http.ResponseWriter, r *http.Request) {
		if n > 0 {
			wiretest.SSE(w, text("Fine."), completed("r2"))
			return
		}
		evs := []string{ev("response.output_item.added", `"item":{"type":"function_call","id":"fc1","call_id":"c1","name":"look"}`)}
		for range request.MaxCallArguments/(8<<10) + 2 {
			evs = append(evs, ev("response.function_call_arguments.delta", `"item_id":"fc1","delta":`+string(piece)))
		}
		evs = append(evs, ev("response.output_item.done", `"item":{"type":"function_call","id":"fc1","call_id":"c1","name":"look"}`), completed("r1"))
		wiretest.SSE(w, evs...)
	})
	e.turn("1", "look")
	if ran.Load() != 0 {
		t.Fatal("a call with oversize arguments ran")
	}
	in := e.be.Body(t, 1)["input"].([]any)
	out := in[len(in)-1].(map[string]any)
	if out["type"] != "function_call_output" || out["output"] != request.ResultArgumentsTooLarge {
		t.Fatalf("last input item %v", out)
	}
}

// An output item id over MaxIDBytes fails the turn.
func TestALongItemIDFailsTheTurn(t *testing.T) {
	e := newEnv(t, nil, []transport.Tool{wiretest.LookTool()}, func(n int, w http.ResponseWriter, r *http.Request) {
		wiretest.SSE(w, ev("response.output_item.added", `"item":{"type":"function_call","id":"`+strings.Repeat("i", request.MaxIDBytes+1)+`","call_id":"c1","name":"look"}`), completed("r"))
	})
	e.turn("1", "look")
	wiretest.EqLines(t, e.rec.Got(), []string{"error ", "end"})
}
