package inputrules_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"yui/transport/responses/inputrules"
)

func TestRules(t *testing.T) {
	user := `{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"},{"type":"input_image","image_url":"data:image/png;base64,AAAA"}]}`
	assistant := `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello."}]}`
	call := `{"type":"function_call","call_id":"c1","name":"look","arguments":"{}"}`
	output := `{"type":"function_call_output","call_id":"c1","output":"ok"}`
	cases := []struct {
		name, body string
		srv        inputrules.Server
		want       string // "" passes
	}{
		{"typed transcript and round trip", `{"input":[` + user + `,` + assistant + `,` + user + `,` + call + `,` + output + `]}`, inputrules.LlamaServer, ""},
		{"a string input", `{"input":"hi"}`, inputrules.LlamaServer, ""},
		{"string message content", `{"input":[{"type":"message","role":"assistant","content":"Hello."}]}`, inputrules.LlamaServer, ""},
		{"previous_response_id on llama-server", `{"previous_response_id":"resp_1","input":[` + user + `]}`, inputrules.LlamaServer, inputrules.NoPreviousResponseID},
		{"previous_response_id on OpenAI", `{"previous_response_id":"resp_1","input":[` + user + `,` + output + `]}`, inputrules.OpenAI, ""},
		{"an empty previous_response_id", `{"previous_response_id":"","input":[` + user + `]}`, inputrules.LlamaServer, ""},
		// What Yui sent before: the assistant history item untyped.
		{"untyped assistant item", `{"input":[` + user + `,{"role":"assistant","content":"Hello."}]}`, inputrules.LlamaServer, inputrules.UntypedItem},
		{"untyped user item", `{"input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]}]}`, inputrules.OpenAI, inputrules.UntypedItem},
		{"a message without a role", `{"input":[{"type":"message","content":"hi"}]}`, inputrules.LlamaServer, inputrules.UntypedItem},
		{"an assistant input_text part", `{"input":[{"type":"message","role":"assistant","content":[{"type":"input_text","text":"x"}]}]}`, inputrules.OpenAI, inputrules.AssistantPartType},
		{"a user output_text part", `{"input":[{"type":"message","role":"user","content":[{"type":"output_text","text":"x"}]}]}`, inputrules.LlamaServer, inputrules.UserPartType},
		{"an untyped part", `{"input":[{"type":"message","role":"user","content":[{"text":"x"}]}]}`, inputrules.LlamaServer, inputrules.UserPartType},
		{"an image without its url", `{"input":[{"type":"message","role":"user","content":[{"type":"input_image"}]}]}`, inputrules.LlamaServer, inputrules.ImageNeedsURL},
		{"a function_call without arguments", `{"input":[{"type":"function_call","call_id":"c1","name":"look"}]}`, inputrules.LlamaServer, inputrules.UntypedItem},
		{"a function_call_output without output", `{"input":[` + call + `,{"type":"function_call_output","call_id":"c1"}]}`, inputrules.LlamaServer, inputrules.UntypedItem},
		{"an answer to no call", `{"input":[` + user + `,` + output + `]}`, inputrules.LlamaServer, "No tool call found for function call output with call_id c1."},
		{"no input", `{"model":"m"}`, inputrules.LlamaServer, inputrules.InputRequired},
		{"input of another shape", `{"input":7}`, inputrules.LlamaServer, inputrules.InputShape},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ""
			if r := inputrules.Check([]byte(c.body), c.srv); r != nil {
				got = r.Message
			}
			if got != c.want {
				t.Fatalf("Check = %q, want %q", got, c.want)
			}
		})
	}
}

// TestHandlerAnswersAsTheServerDoes: the refusal is llama-server's body
// (or OpenAI's), and a request that passes reaches next with its body.
func TestHandlerAnswersAsTheServerDoes(t *testing.T) {
	var got string
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = string(b)
	})
	for _, srv := range []inputrules.Server{inputrules.LlamaServer, inputrules.OpenAI} {
		h := inputrules.Handler(srv, next)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("POST", "/v1/responses", strings.NewReader(`{"input":[{"role":"assistant","content":"x"}]}`)))
		if w.Code != 400 {
			t.Fatalf("status %d", w.Code)
		}
		var b struct {
			Error struct {
				Code    any    `json:"code"`
				Message string `json:"message"`
				Type    string `json:"type"`
			} `json:"error"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
			t.Fatal(err)
		}
		if b.Error.Message != inputrules.UntypedItem || b.Error.Type != "invalid_request_error" {
			t.Fatalf("body %s", w.Body)
		}
		if code, _ := b.Error.Code.(float64); (srv == inputrules.LlamaServer) != (code == 400) {
			t.Fatalf("server %d: code %v", srv, b.Error.Code)
		}
	}
	body := `{"input":"hi"}`
	inputrules.Handler(inputrules.LlamaServer, next).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/", strings.NewReader(body)))
	if got != body {
		t.Fatalf("next got %q", got)
	}
}
