package responses_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"yui/transport"
	"yui/transport/internal/pipenet"
	"yui/transport/internal/request"
	"yui/transport/internal/wiretest"
	"yui/transport/responses"
	"yui/transport/responses/inputrules"
)

func ev(typ string, fields string) string {
	if fields == "" {
		return `{"type":"` + typ + `"}`
	}
	return `{"type":"` + typ + `",` + fields + `}`
}

func text(s string) string {
	b, _ := json.Marshal(s)
	return ev("response.output_text.delta", `"delta":`+string(b))
}

func completed(id string) string {
	return ev("response.completed", `"response":{"id":"`+id+`","output":[],"usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15}}`)
}

type env struct {
	t   *testing.T
	be  *wiretest.Backend
	tr  *request.Engine
	rec *wiretest.Rec
	st  *wiretest.MemStore
}

func newEnv(t *testing.T, st *wiretest.MemStore, tools []transport.Tool, reply func(n int, w http.ResponseWriter, r *http.Request)) *env {
	t.Helper()
	// As strict about the input as OpenAI's server: a request it would
	// refuse is refused here too.
	be := &wiretest.Backend{Reply: func(n int, w http.ResponseWriter, r *http.Request) {
		inputrules.Handler(inputrules.OpenAI, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reply(n, w, r) })).ServeHTTP(w, r)
	}}
	srv := httptest.NewServer(be)
	t.Cleanup(srv.Close)
	if st == nil {
		st = &wiretest.MemStore{}
	}
	tr, err := responses.New(responses.Config{
		Endpoint: func() string { return srv.URL + "/v1" }, Key: func() string { return "sk-r" },
		Params: func() request.Params {
			return request.Params{Model: "gpt-x", ReasoningEffort: "medium", Card: "You are Yui.", ContextWindow: 100000}
		},
		Character: "Yui", Tools: tools, Store: st,
		Vocabulary: transport.Vocabulary{EmotionIDs: []string{"happy"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := wiretest.NewRec()
	tr.Start(r.Handler())
	t.Cleanup(func() { tr.Close() })
	return &env{t: t, be: be, tr: tr, rec: r, st: st}
}

func (e *env) turn(id, text string, images ...string) {
	e.t.Helper()
	if err := e.tr.SendTurn(context.Background(), transport.Turn{TurnID: id, Text: text, Images: images,
		ClientContext: "<client_context>\ntrigger: user message\n</client_context>"}); err != nil {
		e.t.Fatal(err)
	}
	e.rec.WaitEnd(e.t, id)
}

func TestReplyToolsReasoningUsageAndChaining(t *testing.T) {
	e := newEnv(t, nil, []transport.Tool{wiretest.LookTool()}, func(n int, w http.ResponseWriter, r *http.Request) {
		switch n {
		case 0:
			wiretest.SSE(w,
				ev("response.created", `"response":{"id":"resp_0"}`),
				ev("response.reasoning_summary_text.delta", `"delta":"Check"`),
				ev("response.reasoning_text.delta", `"delta":"ing."`),
				ev("response.output_item.added", `"output_index":0,"item":{"type":"web_search_call","id":"ws1","status":"in_progress"}`),
				ev("response.output_item.done", `"output_index":0,"item":{"type":"web_search_call","id":"ws1","status":"completed"}`),
				ev("response.output_item.added", `"output_index":1,"item":{"type":"function_call","id":"fc1","call_id":"call_a","name":"generate_express","arguments":""}`),
				ev("response.function_call_arguments.delta", `"item_id":"fc1","delta":"{\"emotion_id\":"`),
				ev("response.function_call_arguments.delta", `"item_id":"fc1","delta":"\"happy\"}"`),
				ev("response.output_item.done", `"output_index":1,"item":{"type":"function_call","id":"fc1","call_id":"call_a","name":"generate_express","arguments":"{\"emotion_id\":\"happy\"}"}`),
				ev("response.output_item.added", `"output_index":2,"item":{"type":"function_call","id":"fc2","call_id":"call_b","name":"look"}`),
				ev("response.function_call_arguments.done", `"item_id":"fc2","arguments":"{\"at\":\"body\"}"`),
				ev("response.output_item.done", `"output_index":2,"item":{"type":"function_call","id":"fc2","call_id":"call_b","name":"look"}`),
				completed("resp_1"))
		case 1:
			wiretest.SSE(w, text("Hi there. "), text("How are you?"), completed("resp_2"))
		default:
			wiretest.SSE(w, text("Again."), completed("resp_3"))
		}
	})
	e.turn("1", "hello", "data:image/png;base64,AAAA")
	wiretest.EqLines(t, e.rec.Got(), []string{
		"tool web_search running", "tool web_search done",
		"tool look running", "tool look done",
		`call look {"at":"body"}`, "result body: standing images=0",
		"cue e=happy", "say Hi there.", "say How are you?",
		"reasoning Checking.",
		"usage 15", "end",
	})
	b := e.be.Body(t, 0)
	if b["instructions"] != "You are Yui." || b["model"] != "gpt-x" || b["previous_response_id"] != nil {
		t.Fatalf("body %v", b)
	}
	if r, _ := b["reasoning"].(map[string]any); r["effort"] != "medium" {
		t.Fatalf("reasoning %v", b["reasoning"])
	}
	in := b["input"].([]any)
	parts := in[0].(map[string]any)["content"].([]any)
	if p := parts[0].(map[string]any); p["type"] != "input_text" || !strings.HasSuffix(p["text"].(string), "</client_context>\n\nhello") {
		t.Fatalf("input_text %v", p)
	}
	if parts[1].(map[string]any)["type"] != "input_image" {
		t.Fatalf("input_image %v", parts)
	}
	tl := b["tools"].([]any)[1].(map[string]any)
	if tl["type"] != "function" || tl["name"] != "look" {
		t.Fatalf("flat tool %v", tl)
	}
	// The round trip re-sends the input plus the calls and outputs, under
	// the same previous_response_id (none yet).
	b1 := e.be.Body(t, 1)
	in1 := b1["input"].([]any)
	var kinds []string
	for _, it := range in1 {
		kinds = append(kinds, itemKind(it))
	}
	wiretest.EqLines(t, kinds, []string{"message:user", "function_call:call_a", "function_call:call_b", "function_call_output:call_a", "function_call_output:call_b"})
	// The next turn chains on the last completed response.
	e.turn("2", "again")
	if b2 := e.be.Body(t, 2); b2["previous_response_id"] != "resp_2" || len(b2["input"].([]any)) != 1 {
		t.Fatalf("chained body %v", b2)
	}
	// Reset clears the stored id.
	e.tr.Reset(context.Background())
	e.turn("3", "fresh")
	if b3 := e.be.Body(t, 3); b3["previous_response_id"] != nil {
		t.Fatalf("after reset %v", b3["previous_response_id"])
	}
}

func TestFailureEventsGiveTheGenericText(t *testing.T) {
	for _, typ := range []string{"error", "response.failed", "response.incomplete"} {
		t.Run(typ, func(t *testing.T) {
			e := newEnv(t, nil, nil, func(n int, w http.ResponseWriter, r *http.Request) {
				wiretest.SSE(w, text("Partly. "), ev(typ, `"message":"secret upstream detail","response":{"error":{"message":"x"}}`))
			})
			e.turn("1", "hi")
			wiretest.EqLines(t, e.rec.Got(), []string{"say Partly.", "error ", "end"})
		})
	}
}

func TestHTTPErrorsShowStatusAndText(t *testing.T) {
	e := newEnv(t, nil, nil, func(n int, w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"model not found"}}`, 404)
	})
	e.turn("1", "hi")
	wiretest.EqLines(t, e.rec.Got(), []string{"error HTTP 404: model not found", "end"})
}

func TestCutStreamAndIdleUnderSynctest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, stop := pipenet.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			wiretest.SSE(w, ev("response.created", `"response":{"id":"r"}`))
			<-r.Context().Done()
		}))
		defer stop()
		tr, _ := responses.New(responses.Config{Endpoint: func() string { return "http://b.test/v1" }, HTTPClient: l.Client()})
		r := wiretest.NewRec()
		tr.Start(r.Handler())
		defer tr.Close()
		tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "hi"})
		time.Sleep(request.BetweenEventsWait + time.Second)
		synctest.Wait()
		wiretest.EqLines(t, r.Got(), []string{"wait true rendered=false", "end"})
	})
}

// An SSE "event: error" whose data carries no type is read by its event
// name.
func TestEventNamedErrorWithoutType(t *testing.T) {
	e := newEnv(t, nil, nil, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: response.output_text.delta\ndata: {\"delta\":\"Hm. \"}\n\nevent: error\ndata: {\"message\":\"overloaded\",\"code\":\"server_error\"}\n\n")
	})
	e.turn("1", "hi")
	wiretest.EqLines(t, e.rec.Got(), []string{"say Hm.", "error ", "end"})
}
