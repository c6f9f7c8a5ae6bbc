package chatcompletions_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/internal/wiretest"
	"yui/transport/transporttest"
)

func call(idx int, id, name, args string) string {
	a, _ := json.Marshal(args)
	return fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":%q,"type":"function","function":{"name":%q,"arguments":%s}}]}}]}`, idx, id, name, a)
}

func cueArgs(c transport.Cue) string { b, _ := json.Marshal(c); return string(b) }

// TestConformance: Chat Completions passes the transport suite against a
// hand-written SSE server on loopback playing the script.
func TestConformance(t *testing.T) {
	transporttest.Run(t, func(t *testing.T, tools []transport.Tool) transporttest.Wire {
		var remembered atomic.Bool
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			raw, _ := io.ReadAll(r.Body)
			var b struct {
				Messages []struct {
					Role    string `json:"role"`
					Content any    `json:"content"`
				} `json:"messages"`
			}
			json.Unmarshal(raw, &b)
			users, last, toolAnswered := 0, "", false
			for _, m := range b.Messages {
				switch m.Role {
				case "user":
					users++
					if s, ok := m.Content.(string); ok {
						last = s
					}
				case "tool":
					toolAnswered = true
				}
			}
			remembered.Store(users > 1)
			switch {
			case last == transporttest.TextHello:
				wiretest.SSE(w, wiretest.Reasoning(transporttest.Reasoning),
					call(0, "w1", transporttest.BackendTool, "{}"),
					call(1, "c1", "generate_express", cueArgs(transporttest.CueFirst)),
					wiretest.Content(transporttest.HelloFirst+" "),
					call(2, "c2", "generate_express", cueArgs(transporttest.CueSecond)),
					wiretest.Content(transporttest.HelloSecond),
					call(3, "c3", "generate_express", cueArgs(transporttest.CueSilent)),
					wiretest.Finish("tool_calls"),
					`{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`, "[DONE]")
			case last == transporttest.TextLook && !toolAnswered:
				wiretest.SSE(w, call(0, "l1", "look", transporttest.LookArgs), wiretest.Finish("tool_calls"), "[DONE]")
			case last == transporttest.TextLook:
				wiretest.SSE(w, wiretest.Content(transporttest.TextSeen), wiretest.Finish("stop"), "[DONE]")
			case last == transporttest.TextFail:
				http.Error(w, `{"error":{"message":"`+transporttest.ErrorText+`"}}`, 500)
			case last == transporttest.TextSlow:
				wiretest.SSE(w, wiretest.Content(transporttest.SlowFirst+" "))
				<-r.Context().Done()
			case last == transporttest.TextAgain:
				wiretest.SSE(w, wiretest.Content(transporttest.AgainReply), wiretest.Finish("stop"), "[DONE]")
			default:
				http.Error(w, "unscripted "+strings.TrimSpace(last), 500)
			}
		}))
		t.Cleanup(srv.Close)
		tr, err := chatcompletions.New(chatcompletions.Config{Endpoint: func() string { return srv.URL + "/v1" }, Tools: tools})
		if err != nil {
			t.Fatal(err)
		}
		return transporttest.Wire{Transport: tr, Remembers: remembered.Load}
	})
}
