package responses_test

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
	"yui/transport/internal/wiretest"
	"yui/transport/responses"
	"yui/transport/responses/inputrules"
	"yui/transport/transporttest"
)

func fcall(idx int, id, name string, args any) []string {
	a, _ := json.Marshal(args)
	as, _ := json.Marshal(string(a))
	item := fmt.Sprintf(`{"type":"function_call","id":"fc_%s","call_id":%q,"name":%q`, id, id, name)
	return []string{
		ev("response.output_item.added", fmt.Sprintf(`"output_index":%d,"item":%s,"arguments":""}`, idx, item)),
		ev("response.function_call_arguments.delta", fmt.Sprintf(`"item_id":"fc_%s","delta":%s`, id, as)),
		ev("response.output_item.done", fmt.Sprintf(`"output_index":%d,"item":%s,"arguments":%s}`, idx, item, as)),
	}
}

// TestConformance: Responses passes the transport suite against a
// hand-written SSE server on loopback playing the script, as strict about
// its input as OpenAI's, and as llama-server's (no previous_response_id:
// the client carries the transcript).
func TestConformance(t *testing.T) {
	t.Run("openai", func(t *testing.T) { conformance(t, inputrules.OpenAI) })
	t.Run("llama-server", func(t *testing.T) { conformance(t, inputrules.LlamaServer) })
}

func conformance(t *testing.T, rules inputrules.Server) {
	transporttest.Run(t, func(t *testing.T, tools []transport.Tool) transporttest.Wire {
		var remembered atomic.Bool
		var n atomic.Int32
		srv := httptest.NewServer(inputrules.Handler(rules, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			raw, _ := io.ReadAll(r.Body)
			var b struct {
				Prev  string `json:"previous_response_id"`
				Input []struct {
					Type    string `json:"type"`
					Role    string `json:"role"`
					Content []struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"input"`
			}
			json.Unmarshal(raw, &b)
			last, answered, users := "", false, 0
			for _, it := range b.Input {
				if it.Role == "user" && len(it.Content) > 0 {
					txt := it.Content[0].Text
					last = txt[strings.LastIndex(txt, "\n")+1:]
					users++
				}
				if it.Type == "function_call_output" {
					answered = true
				}
			}
			remembered.Store(b.Prev != "" || users > 1)
			id := fmt.Sprintf("resp_%d", n.Add(1))
			done := ev("response.completed", `"response":{"id":"`+id+`","usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15}}`)
			var evs []string
			switch {
			case last == transporttest.TextHello:
				evs = append(evs, ev("response.created", `"response":{"id":"`+id+`"}`),
					ev("response.reasoning_text.delta", `"delta":"`+transporttest.Reasoning+`"`),
					ev("response.output_item.added", `"output_index":0,"item":{"type":"web_search_call","id":"ws","status":"in_progress"}`),
					ev("response.output_item.done", `"output_index":0,"item":{"type":"web_search_call","id":"ws","status":"completed"}`))
				evs = append(evs, fcall(1, "c1", "generate_express", transporttest.CueFirst)...)
				evs = append(evs, text(transporttest.HelloFirst+" "))
				evs = append(evs, fcall(2, "c2", "generate_express", transporttest.CueSecond)...)
				evs = append(evs, text(transporttest.HelloSecond))
				evs = append(evs, fcall(3, "c3", "generate_express", transporttest.CueSilent)...)
				evs = append(evs, done)
			case last == transporttest.TextLook && !answered:
				evs = append(fcall(0, "l1", "look", json.RawMessage(transporttest.LookArgs)), done)
			case last == transporttest.TextLook:
				evs = []string{text(transporttest.TextSeen), done}
			case last == transporttest.TextFail:
				http.Error(w, `{"error":{"message":"`+transporttest.ErrorText+`"}}`, 500)
				return
			case last == transporttest.TextSlow:
				wiretest.SSE(w, text(transporttest.SlowFirst+" "))
				<-r.Context().Done()
				return
			case last == transporttest.TextAgain:
				evs = []string{text(transporttest.AgainReply), done}
			default:
				http.Error(w, "unscripted "+last, 500)
				return
			}
			wiretest.SSE(w, evs...)
		})))
		t.Cleanup(srv.Close)
		tr, err := responses.New(responses.Config{Endpoint: func() string { return srv.URL + "/v1" }, Tools: tools})
		if err != nil {
			t.Fatal(err)
		}
		return transporttest.Wire{Transport: tr, Carries: transporttest.Carries{ToolRunning: true}, Remembers: remembered.Load}
	})
}
