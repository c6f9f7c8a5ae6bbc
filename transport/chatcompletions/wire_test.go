package chatcompletions_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"yui/transport"
	"yui/transport/chatcompletions"
)

func TestReplyWithCuesReasoningToolsAndUsage(t *testing.T) {
	e := newEnv(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch n {
		case 0:
			sse(w,
				reasoning("Let me look"), reasoning(" first."),
				// a cue in one piece with an id, then a client tool call
				// without an id, its arguments in pieces
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"generate_express","arguments":"{\"emotion_id\":\"happy\"}"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"name":"look","arguments":"{\"at\""}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":":\"body\"}"}}]}}]}`,
				finish("tool_calls"), usage, "[DONE]")
		case 1:
			sse(w, content("Hi there. How"), content(" are you?"),
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c9","function":{"name":"generate_express","arguments":"{\"motion_id\":\"dance\"}"}}]}}],"error":null}`,
				finish("tool_calls"), usage, "[DONE]")
		}
	}, chatcompletions.Config{Tools: []transport.Tool{lookTool()}})
	e.turn("1", "hello", "data:image/png;base64,AAAA")
	e.rec.WaitEnd(t, "1")
	eqLines(t, e.rec.Got(), []string{
		"tool look done",
		"call look {\"at\":\"body\"}",
		"result body: standing images=0",
		"cue e=happy", "say Hi there.",
		// the cue call after the unfinished sentence applies to what
		// follows: the sentence is spoken first, the cue ends the reply
		"say How are you?", "cue m=dance",
		"reasoning Let me look first.",
		"usage 15", "end",
	})
	// The first request: card, client_context, user (image, then text).
	b := e.be.Body(t, 0)
	if b["model"] != "m-1" || b["reasoning_effort"] != "low" || b["stream"] != true {
		t.Fatalf("body %v", b)
	}
	if so, _ := b["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Fatalf("stream_options %v", b["stream_options"])
	}
	msgs := b["messages"].([]any)
	roles := []string{}
	for _, m := range msgs {
		roles = append(roles, m.(map[string]any)["role"].(string))
	}
	eqLines(t, roles, []string{"system", "system", "user"})
	if c := msgs[1].(map[string]any)["content"].(string); !strings.HasPrefix(c, "client_context:\ntime: now") || strings.Contains(c, "<client_context>") {
		t.Fatalf("client_context message %q", c)
	}
	parts := msgs[2].(map[string]any)["content"].([]any)
	if parts[0].(map[string]any)["type"] != "image_url" || parts[1].(map[string]any)["text"] != "hello" {
		t.Fatalf("user parts %v", parts)
	}
	var names []string
	for _, tl := range b["tools"].([]any) {
		names = append(names, tl.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	eqLines(t, names, []string{"generate_express", "look"})
	// The round trip: the assistant's calls (an id made up for the one
	// without), then the tool answers.
	b1 := e.be.Body(t, 1)
	msgs = b1["messages"].([]any)
	asst := msgs[3].(map[string]any)
	calls := asst["tool_calls"].([]any)
	if len(calls) != 2 || calls[1].(map[string]any)["id"] == "" {
		t.Fatalf("assistant %v", asst)
	}
	if m := msgs[4].(map[string]any); m["role"] != "tool" || m["tool_call_id"] != "c1" || m["content"] != "ok" {
		t.Fatalf("cue answer %v", m)
	}
	if m := msgs[5].(map[string]any); m["content"] != "body: standing" || m["tool_call_id"] != calls[1].(map[string]any)["id"] {
		t.Fatalf("look answer %v", m)
	}
	h := e.be.Header(0)
	if h.Get("Authorization") != "Bearer sk-test" || !strings.HasPrefix(h.Get("Idempotency-Key"), "yui-") {
		t.Fatalf("headers %v", h)
	}
	if h1 := e.be.Header(1); h1.Get("Idempotency-Key") == h.Get("Idempotency-Key") {
		t.Fatal("the Idempotency-Key repeats")
	}
}

func TestTranscriptCarriedTrimmedAndBoundedByReset(t *testing.T) {
	st := &memStore{}
	reply := func(n int, w http.ResponseWriter, r *http.Request) {
		sse(w, content(fmt.Sprintf("Reply %d.", n)), finish("stop"), "[DONE]")
	}
	e := newEnv(t, reply, chatcompletions.Config{Store: st})
	e.turn("1", "first")
	e.rec.WaitEnd(t, "1")
	e.turn("2", "second")
	e.rec.WaitEnd(t, "2")
	msgs := e.be.Body(t, 1)["messages"].([]any)
	var got []string
	for _, m := range msgs {
		mm := m.(map[string]any)
		c, _ := mm["content"].(string)
		got = append(got, mm["role"].(string)+":"+strings.SplitN(c, "\n", 2)[0])
	}
	eqLines(t, got, []string{"system:You are Yui.", "user:first", "assistant:Reply 0.", "system:client_context:", "user:second"})

	// A new transport on the same store carries the transcript on.
	e2 := newEnv(t, reply, chatcompletions.Config{Store: st})
	e2.turn("3", "third")
	e2.rec.WaitEnd(t, "3")
	if n := len(e2.be.Body(t, 0)["messages"].([]any)); n != 7 {
		t.Fatalf("persisted transcript not carried: %d messages", n)
	}
	// Reset: a boundary; nothing before it goes.
	e2.tr.Reset(t.Context())
	e2.turn("4", "fourth")
	e2.rec.WaitEnd(t, "4")
	if n := len(e2.be.Body(t, 1)["messages"].([]any)); n != 3 {
		t.Fatalf("after reset %d messages, want card, context, user", n)
	}
}

func TestErrorsAsTheSpecTableSays(t *testing.T) {
	cases := []struct {
		name  string
		reply func(w http.ResponseWriter)
		want  []string
	}{
		{"401", func(w http.ResponseWriter) {
			http.Error(w, `{"error":{"message":"bad key sk-xx"}}`, http.StatusUnauthorized)
		},
			[]string{"error Yui's backend refused the key (HTTP 401). Check the key in Settings → Backend.", "end"}},
		{"403", func(w http.ResponseWriter) { http.Error(w, `{"error":"forbidden"}`, http.StatusForbidden) },
			[]string{"error Yui's backend refused the key (HTTP 403). Check the key in Settings → Backend.", "end"}},
		{"429", func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "7")
			http.Error(w, `{"error":{"message":"slow down"}}`, http.StatusTooManyRequests)
		}, []string{"error Rate limited (HTTP 429), retry after 7 s: slow down", "end"}},
		{"500 string error", func(w http.ResponseWriter) { http.Error(w, `{"error":"model exploded"}`, 500) },
			[]string{"error HTTP 500: model exploded", "end"}},
		{"html 502", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(502)
			fmt.Fprint(w, "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>")
		}, []string{"error HTTP 502: 502 Bad Gateway", "end"}},
		{"mid-stream error without status", func(w http.ResponseWriter) {
			sse(w, content("Hello there. Then"), `{"error":{"message":"upstream died"}}`)
		}, []string{"say Hello there.", "say Then", "error ", "end"}},
		{"mid-stream error with status", func(w http.ResponseWriter) {
			sse(w, `{"error":{"message":"overloaded","code":503}}`)
		}, []string{"error HTTP 503: overloaded", "end"}},
		{"cut without DONE", func(w http.ResponseWriter) { sse(w, content("Half a")) },
			[]string{"say Half a", "error ", "end"}},
		{"10 MB line", func(w http.ResponseWriter) {
			sse(w, content("Big. "), `{"choices":[{"index":0,"delta":{"content":"`+strings.Repeat("x", 10<<20)+`"}}]}`)
		}, []string{"say Big.", "error ", "end"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, func(_ int, w http.ResponseWriter, _ *http.Request) { c.reply(w) }, chatcompletions.Config{})
			e.turn("1", "hi")
			e.rec.WaitEnd(t, "1")
			eqLines(t, e.rec.Got(), c.want)
			for _, l := range e.rec.Got() {
				if strings.Contains(l, "<") || strings.Contains(l, "sk-") && !strings.Contains(l, "refused") {
					t.Fatalf("markup or key in %q", l)
				}
			}
		})
	}
}

func TestSplitToolCallsWithoutIndexOrID(t *testing.T) {
	e := newEnv(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			sse(w,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"name":"look","arguments":"{\"at\":"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"\"body\"}"}}]}}]}`,
				finish("tool_calls"), "[DONE]")
			return
		}
		sse(w, content("Done."), finish("stop"), "[DONE]")
	}, chatcompletions.Config{Tools: []transport.Tool{lookTool()}})
	e.turn("1", "look")
	e.rec.WaitEnd(t, "1")
	eqLines(t, e.rec.Got(), []string{"tool look done", `call look {"at":"body"}`, "result body: standing images=0", "say Done.", "end"})
	var m map[string]any
	b, _ := json.Marshal(e.be.Body(t, 1)["messages"])
	json.Unmarshal([]byte(`{"m":`+string(b)+`}`), &m)
}

func TestToolImagesFollowAsUserMessage(t *testing.T) {
	e := newEnv(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			sse(w, `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"look","arguments":"{}"}}]}}]}`, finish("tool_calls"), "[DONE]")
			return
		}
		sse(w, content("I see."), finish("stop"), "[DONE]")
	}, chatcompletions.Config{Tools: []transport.Tool{lookTool("data:image/jpeg;base64,/9j/")}})
	e.turn("1", "look")
	e.rec.WaitEnd(t, "1")
	msgs := e.be.Body(t, 1)["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	parts, _ := last["content"].([]any)
	if last["role"] != "user" || len(parts) != 2 || parts[1].(map[string]any)["type"] != "image_url" {
		t.Fatalf("last message %v", last)
	}
}

func TestAtMostThreeRoundTrips(t *testing.T) {
	e := newEnv(t, func(n int, w http.ResponseWriter, r *http.Request) {
		sse(w, fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c%d","function":{"name":"look","arguments":"{}"}}]}}]}`, n), finish("tool_calls"), "[DONE]")
	}, chatcompletions.Config{Tools: []transport.Tool{lookTool()}})
	e.turn("1", "loop")
	e.rec.WaitEnd(t, "1")
	n := e.be.Requests()
	if n != 4 {
		t.Fatalf("%d requests, want the first and 3 round trips", n)
	}
}

// memHistory is a transport.History in memory (the core's is the
// character's transcript, app/transcript).
type memHistory struct {
	mu   sync.Mutex
	msgs []transport.HistoryMessage
	ids  []string
}

func (h *memHistory) Exchanges() []transport.HistoryMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]transport.HistoryMessage(nil), h.msgs...)
}

func (h *memHistory) RecordExchange(turnID, user, assistant string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ids = append(h.ids, turnID)
	h.msgs = append(h.msgs, transport.HistoryMessage{Role: "user", Content: user}, transport.HistoryMessage{Role: "assistant", Content: assistant})
}

// With a History the transcript sent is the History's (one store), the
// exchange is recorded there by turn id before TurnEnd, and the Store
// keeps no messages.
func TestHistoryIsWhatIsSent(t *testing.T) {
	st := &memStore{}
	h := &memHistory{msgs: []transport.HistoryMessage{{Role: "user", Content: "earlier"}, {Role: "assistant", Content: "Earlier reply."}}}
	reply := func(n int, w http.ResponseWriter, r *http.Request) {
		sse(w, content(fmt.Sprintf("Reply %d.", n)), finish("stop"), "[DONE]")
	}
	e := newEnv(t, reply, chatcompletions.Config{Store: st, History: h})
	e.turn("1", "first")
	e.rec.WaitEnd(t, "1")
	e.turn("2", "second")
	e.rec.WaitEnd(t, "2")
	var got []string
	for _, m := range e.be.Body(t, 1)["messages"].([]any) {
		mm := m.(map[string]any)
		c, _ := mm["content"].(string)
		got = append(got, mm["role"].(string)+":"+strings.SplitN(c, "\n", 2)[0])
	}
	eqLines(t, got, []string{"system:You are Yui.", "user:earlier", "assistant:Earlier reply.", "user:first", "assistant:Reply 0.", "system:client_context:", "user:second"})
	h.mu.Lock()
	ids := slices.Clone(h.ids)
	h.mu.Unlock()
	if !slices.Equal(ids, []string{"1", "2"}) {
		t.Fatalf("recorded turns %v, want [1 2]", ids)
	}
	if b, _ := st.Load(); strings.Contains(string(b), "first") {
		t.Fatalf("the Store kept messages beside the History: %s", b)
	}
	// Emptied by the client (New conversation): nothing earlier goes.
	h.mu.Lock()
	h.msgs = nil
	h.mu.Unlock()
	e.turn("3", "third")
	e.rec.WaitEnd(t, "3")
	if n := len(e.be.Body(t, 2)["messages"].([]any)); n != 3 {
		t.Fatalf("after the history was emptied %d messages, want card, context, user", n)
	}
}
