package pet_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/bodyaction"
	"yui/app/clientctx"
	"yui/app/pet"
	"yui/app/playback"
	"yui/app/session"
	"yui/app/settings"
)

// actor records the actions main's body_action hands it.
type actor struct {
	mu  sync.Mutex
	got []bodyaction.Action
}

func (a *actor) Act(_ context.Context, act bodyaction.Action) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.got = append(a.got, act)
	return bodyaction.OK
}

// bodyServer is a request-wire backend: its first answer calls
// body_action, the second (the round trip) says a line; it records the
// request bodies.
type bodyServer struct {
	mu     sync.Mutex
	bodies []map[string]any
	first  string // the first answer's SSE
	second string
}

func (s *bodyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var m map[string]any
	json.Unmarshal(b, &m)
	s.mu.Lock()
	n := len(s.bodies)
	s.bodies = append(s.bodies, m)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	if n == 0 {
		io.WriteString(w, s.first)
	} else {
		io.WriteString(w, s.second)
	}
}

func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		fmt.Fprintf(&b, "data: %s\n\n", e)
	}
	return b.String()
}

// roundTrip runs one typed turn on main over chatAPI against srv.
func roundTrip(t *testing.T, chatAPI string, srv *bodyServer) *actor {
	t.Helper()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	ended := make(chan struct{}, 4)
	a := &actor{}
	p := settings.Preset{ID: "p-00000001", Name: "Yui", ChatAPI: chatAPI, ChatBaseURL: hs.URL, ChatID: "yui-00000001", Model: "m"}
	ch, err := pet.New(pet.Config{Preset: p, Main: true, ConfigDir: t.TempDir(), Voice: playback.Silent{}, BodyActor: a,
		BodyLine: func() clientctx.Body { return clientctx.Body{Posture: clientctx.Sitting, On: "XTerm"} },
		OnEvent: func(e session.Event) {
			if _, ok := e.(session.TurnEnd); ok {
				ended <- struct{}{}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Session.Close()
	ch.Session.Start()
	if _, err := ch.Session.SendTyped("sit on the terminal", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ended:
	case <-time.After(time.Minute):
		t.Fatal("the turn did not end")
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.bodies) != 2 {
		t.Fatalf("%d requests, want the call and its round trip", len(srv.bodies))
	}
	return a
}

// declared finds body_action in a request's tools (either shape) and
// checks its schema is the tool's.
func declared(t *testing.T, body map[string]any) {
	t.Helper()
	tools, _ := body["tools"].([]any)
	for _, tl := range tools {
		m := tl.(map[string]any)
		if f, ok := m["function"].(map[string]any); ok {
			m = f
		}
		if m["name"] == bodyaction.Name {
			got, _ := json.Marshal(m["parameters"])
			var want any
			json.Unmarshal([]byte(bodyaction.Parameters), &want)
			w, _ := json.Marshal(want)
			if string(got) != string(w) {
				t.Fatalf("body_action parameters %s", got)
			}
			return
		}
	}
	t.Fatalf("tools %v: no body_action", tools)
}

func TestBodyActionOverChatCompletions(t *testing.T) {
	srv := &bodyServer{
		first: sse(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"body_action","arguments":"{\"action\":\"sit_on_window\",\"app\":\"xterm\"}"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`, `[DONE]`),
		second: sse(`{"choices":[{"index":0,"delta":{"content":"Comfy. "}}]}`, `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`, `[DONE]`),
	}
	a := roundTrip(t, pet.ChatCompletions, srv)
	declared(t, srv.bodies[0])
	declared(t, srv.bodies[1])
	if len(a.got) != 1 || a.got[0].Kind != bodyaction.SitOnWindow || a.got[0].App != "xterm" {
		t.Fatalf("actions %+v", a.got)
	}
	msgs := srv.bodies[1]["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	if last["role"] != "tool" || last["tool_call_id"] != "call_1" || last["content"] != "ok" {
		t.Fatalf("round trip's last message %v", last)
	}
	var sys string
	for _, m := range srv.bodies[0]["messages"].([]any) {
		if c, ok := m.(map[string]any)["content"].(string); ok && strings.HasPrefix(c, "client_context:") {
			sys = c
		}
	}
	if !strings.Contains(sys, "\nbody: sitting on XTerm\n") {
		t.Fatalf("client_context message %q", sys)
	}
}

func TestBodyActionOverResponses(t *testing.T) {
	srv := &bodyServer{
		first: sse(`{"type":"response.created","response":{"id":"resp_0"}}`,
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc1","call_id":"call_a","name":"body_action","arguments":""}}`,
			`{"type":"response.function_call_arguments.done","item_id":"fc1","arguments":"{\"action\":\"peek\",\"side\":\"left\"}"}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc1","call_id":"call_a","name":"body_action","arguments":"{\"action\":\"peek\",\"side\":\"left\"}"}}`,
			`{"type":"response.completed","response":{"id":"resp_1","usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}}`),
		second: sse(`{"type":"response.output_text.delta","delta":"Peekaboo. "}`,
			`{"type":"response.completed","response":{"id":"resp_2","usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}}`),
	}
	a := roundTrip(t, pet.Responses, srv)
	declared(t, srv.bodies[0])
	if len(a.got) != 1 || a.got[0].Kind != bodyaction.Peek || a.got[0].Side != "left" {
		t.Fatalf("actions %+v", a.got)
	}
	var out map[string]any
	for _, it := range srv.bodies[1]["input"].([]any) {
		if m := it.(map[string]any); m["type"] == "function_call_output" {
			out = m
		}
	}
	if out == nil || out["call_id"] != "call_a" || out["output"] != "ok" {
		t.Fatalf("round trip input %v", srv.bodies[1]["input"])
	}
}
