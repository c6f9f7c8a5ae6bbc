package responses_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"yui/transport"
	"yui/transport/internal/request"
	"yui/transport/internal/wiretest"
	"yui/transport/responses"
	"yui/transport/responses/inputrules"
)

// itemKind names an input item: its type, then its role or call id.
func itemKind(it any) string {
	m := it.(map[string]any)
	k, _ := m["type"].(string)
	if r, ok := m["role"].(string); ok {
		k += ":" + r
	}
	if c, ok := m["call_id"].(string); ok {
		k += ":" + c
	}
	return k
}

// heard is what a request's user messages said, after the client_context
// block: the conversation the server got.
func heard(b map[string]any) []string {
	var out []string
	in, _ := b["input"].([]any)
	for _, it := range in {
		m := it.(map[string]any)
		if m["role"] != "user" {
			continue
		}
		parts, _ := m["content"].([]any)
		for _, p := range parts {
			pm := p.(map[string]any)
			if txt, ok := pm["text"].(string); ok && pm["type"] == "input_text" {
				if i := strings.LastIndex(txt, "</client_context>\n\n"); i >= 0 {
					txt = txt[i+len("</client_context>\n\n"):]
				}
				out = append(out, txt)
			}
		}
	}
	return out
}

// strictServer is a Responses server as strict as the real one: the
// inputrules of srv (llama-server refuses previous_response_id and any
// item without its type, with its own error body), then reply. It
// records every request, refused ones included.
type strictServer struct {
	srv    inputrules.Server
	be     *wiretest.Backend
	url    string
	mu     sync.Mutex
	status []int // per request: 400 refused, 200 answered
}

func newStrictServer(t *testing.T, srv inputrules.Server, reply func(n int, b map[string]any, w http.ResponseWriter, r *http.Request)) *strictServer {
	s := &strictServer{srv: srv}
	s.be = &wiretest.Backend{Reply: func(n int, w http.ResponseWriter, r *http.Request) {
		ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.note(200)
			reply(n, s.be.Body(t, n), w, r)
		})
		refused := statusRecorder{ResponseWriter: w, s: s}
		inputrules.Handler(srv, ok).ServeHTTP(&refused, r)
	}}
	hs := httptest.NewServer(s.be)
	t.Cleanup(hs.Close)
	s.url = hs.URL + "/v1"
	return s
}

type statusRecorder struct {
	http.ResponseWriter
	s *strictServer
}

func (w *statusRecorder) WriteHeader(code int) {
	if code == http.StatusBadRequest {
		w.s.note(code)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusRecorder) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

func (s *strictServer) note(code int) { s.mu.Lock(); s.status = append(s.status, code); s.mu.Unlock() }

func (s *strictServer) statuses() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.status...)
}

// heardReply answers with what the server heard of the conversation, so
// a test sees the transcript arrive, and mints response ids as a real
// server does.
func heardReply(n int, b map[string]any, w http.ResponseWriter, r *http.Request) {
	wiretest.SSE(w, ev("response.created", fmt.Sprintf(`"response":{"id":"resp_%d"}`, n)),
		text("Heard "+strings.Join(heard(b), ", ")+"."), completed(fmt.Sprintf("resp_%d", n)))
}

func newFallbackEnv(t *testing.T, url string, st *wiretest.MemStore, tools []transport.Tool) *env {
	t.Helper()
	tr, err := responses.New(responses.Config{
		Endpoint: func() string { return url }, Key: func() string { return "sk-r" },
		Params:    func() request.Params { return request.Params{Model: "m", Card: "You are Yui.", ContextWindow: 100000} },
		Character: "Yui", Tools: tools, Store: st,
	})
	if err != nil {
		t.Fatal(err)
	}
	r := wiretest.NewRec()
	tr.Start(r.Handler())
	t.Cleanup(func() { tr.Close() })
	return &env{t: t, tr: tr, rec: r, st: st}
}

// TestLlamaServerTwoAndThreeTurns: against a server that refuses
// previous_response_id and untyped items as llama-server does, the second
// turn's refused request is sent again at once with the transcript (every
// item typed), and the third turn goes with the transcript from the start:
// the fallback is remembered.
func TestLlamaServerTwoAndThreeTurns(t *testing.T) {
	srv := newStrictServer(t, inputrules.LlamaServer, heardReply)
	e := newFallbackEnv(t, srv.url, &wiretest.MemStore{}, nil)
	e.turn("1", "first")
	e.turn("2", "second")
	e.turn("3", "third")
	wiretest.EqLines(t, e.rec.Got(), []string{"say Heard first.", "usage 15", "end",
		"say Heard first, second.", "usage 15", "end",
		"say Heard first, second, third.", "usage 15", "end"})
	if got := fmt.Sprint(srv.statuses()); got != "[200 400 200 200]" {
		t.Fatalf("statuses %s: want one refused request (the second turn's first)", got)
	}
	if srv.be.Body(t, 1)["previous_response_id"] != "resp_0" {
		t.Fatalf("the second turn did not try the stored id first: %v", srv.be.Body(t, 1))
	}
	b := srv.be.Body(t, 3)
	if b["previous_response_id"] != nil {
		t.Fatalf("the third turn sent previous_response_id again: %v", b["previous_response_id"])
	}
	var kinds []string
	for _, it := range b["input"].([]any) {
		kinds = append(kinds, itemKind(it))
	}
	wiretest.EqLines(t, kinds, []string{"message:user", "message:assistant", "message:user", "message:assistant", "message:user"})
	a := b["input"].([]any)[1].(map[string]any)["content"].([]any)[0].(map[string]any)
	if a["type"] != "output_text" || a["text"] != "Heard first." {
		t.Fatalf("assistant part %v", a)
	}
}

// TestFallbackRememberedPerServer: a new transport on the same store (a
// restart) sends no previous_response_id to the server that refused it,
// not even once; the same preset moved to a server that chains chains
// again, and back on the first server the fallback still holds.
func TestFallbackRememberedPerServer(t *testing.T) {
	llama := newStrictServer(t, inputrules.LlamaServer, heardReply)
	st := &wiretest.MemStore{}
	e := newFallbackEnv(t, llama.url, st, nil)
	e.turn("1", "first")
	e.turn("2", "second")
	e.tr.Close()

	e2 := newFallbackEnv(t, llama.url+"/", st, nil) // the same base, as typed with a slash
	e2.turn("3", "third")
	if got := fmt.Sprint(llama.statuses()); got != "[200 400 200 200]" {
		t.Fatalf("statuses after the restart %s: the refused id was tried again", got)
	}
	if b := llama.be.Body(t, 3); b["previous_response_id"] != nil || len(heard(b)) != 3 {
		t.Fatalf("after the restart: %v", b)
	}

	openai := newStrictServer(t, inputrules.OpenAI, heardReply)
	e3 := newFallbackEnv(t, openai.url, st, nil)
	e3.turn("4", "fourth")
	e3.turn("5", "fifth")
	if b := openai.be.Body(t, 1); b["previous_response_id"] != "resp_0" || len(b["input"].([]any)) != 1 {
		t.Fatalf("a chaining server got no chain: %v", b)
	}
	if got := fmt.Sprint(openai.statuses()); got != "[200 200]" {
		t.Fatalf("openai statuses %s", got)
	}
	e3.tr.Close()

	e4 := newFallbackEnv(t, llama.url, st, nil)
	e4.turn("6", "sixth")
	if got := fmt.Sprint(llama.statuses()); got != "[200 400 200 200 200]" {
		t.Fatalf("back on llama-server %s", got)
	}
}

// TestFallbackFromAnEarlierVersionsState: a state saved before the base
// URL was kept ("no_previous_response_id": true) counts for the server in
// use: no refused request.
func TestFallbackFromAnEarlierVersionsState(t *testing.T) {
	llama := newStrictServer(t, inputrules.LlamaServer, heardReply)
	st := &wiretest.MemStore{}
	st.Save([]byte(`{"messages":[{"role":"user","content":"first"},{"role":"assistant","content":"Heard first."}],"no_previous_response_id":true}`))
	e := newFallbackEnv(t, llama.url, st, nil)
	e.turn("2", "second")
	e.turn("3", "third")
	if got := fmt.Sprint(llama.statuses()); got != "[200 200]" {
		t.Fatalf("statuses %s", got)
	}
	wiretest.EqLines(t, e.rec.Got(), []string{"say Heard first, second.", "usage 15", "end", "say Heard first, second, third.", "usage 15", "end"})
	b, _ := st.Load()
	var v map[string]any
	json.Unmarshal(b, &v)
	if v["no_previous_response_id"] != nil || fmt.Sprint(v["no_previous_response_id_bases"]) != "["+llama.url+"]" {
		t.Fatalf("saved state %s", b)
	}
}

// TestToolRoundTripInFallbackMode: a client tool's round trip against
// llama-server's rules: the transcript, the user message, the
// function_call and its function_call_output all pass, and so does the
// user message carrying the tool's images.
func TestToolRoundTripInFallbackMode(t *testing.T) {
	srv := newStrictServer(t, inputrules.LlamaServer, func(n int, b map[string]any, w http.ResponseWriter, r *http.Request) {
		h := heard(b)
		in := b["input"].([]any)
		last := in[len(in)-1].(map[string]any)
		switch {
		case h[len(h)-1] == "look please" && last["type"] == "message":
			wiretest.SSE(w, ev("response.output_item.added", `"output_index":0,"item":{"type":"function_call","id":"fc1","call_id":"call_l","name":"look","arguments":""}`),
				ev("response.function_call_arguments.done", `"item_id":"fc1","arguments":"{\"at\":\"body\"}"`),
				ev("response.output_item.done", `"output_index":0,"item":{"type":"function_call","id":"fc1","call_id":"call_l","name":"look"}`),
				ev("response.output_item.added", `"output_index":1,"item":{"type":"function_call","id":"fc2","call_id":"call_c","name":"generate_express","arguments":""}`),
				ev("response.output_item.done", `"output_index":1,"item":{"type":"function_call","id":"fc2","call_id":"call_c","name":"generate_express"}`),
				completed(fmt.Sprintf("resp_%d", n)))
		default:
			heardReply(n, b, w, r)
		}
	})
	e := newFallbackEnv(t, srv.url, &wiretest.MemStore{}, []transport.Tool{wiretest.LookTool("data:image/png;base64,AAAA")})
	e.turn("1", "first")
	e.turn("2", "look please")
	e.turn("3", "after")
	if got := fmt.Sprint(srv.statuses()); got != "[200 400 200 200 200]" {
		t.Fatalf("statuses %s", got)
	}
	var kinds []string
	for _, it := range srv.be.Body(t, 3)["input"].([]any) {
		kinds = append(kinds, itemKind(it))
	}
	wiretest.EqLines(t, kinds, []string{"message:user", "message:assistant", "message:user",
		"function_call:call_l", "function_call:call_c", "function_call_output:call_l", "function_call_output:call_c", "message:user"})
	call := srv.be.Body(t, 3)["input"].([]any)[4].(map[string]any)
	if call["arguments"] != "{}" {
		t.Fatalf("a call with no arguments went out as %v", call["arguments"])
	}
	got := e.rec.Got()
	wiretest.EqLines(t, got[3:], []string{"tool look running", "tool look done", `call look {"at":"body"}`, "result body: standing images=1",
		"say Heard first, look please, Images from the tool results above..", "usage 15", "end",
		"say Heard first, look please, after.", "usage 15", "end"})
}
