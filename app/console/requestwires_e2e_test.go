package console_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// `yui console --chat-api chat_completions|responses` against hand-written
// SSE servers on loopback: a plain reply, with the model and key from the
// flags, and the usage readout.
func TestConsoleOverTheRequestWires(t *testing.T) {
	for _, api := range []string{"chat_completions", "responses"} {
		t.Run(api, func(t *testing.T) {
			var mu sync.Mutex
			var got []map[string]any
			var auth []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				raw, _ := io.ReadAll(r.Body)
				var m map[string]any
				json.Unmarshal(raw, &m)
				mu.Lock()
				got = append(got, m)
				auth = append(auth, r.Header.Get("Authorization"))
				mu.Unlock()
				w.Header().Set("Content-Type", "text/event-stream")
				if api == "chat_completions" {
					fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"All green. Want the slow ones?\"}}]}\n\n"+
						"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"+
						"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5,\"total_tokens\":15}}\n\ndata: [DONE]\n\n")
					return
				}
				fmt.Fprint(w, "data: {\"type\":\"response.output_text.delta\",\"delta\":\"All green. Want the slow ones?\"}\n\n"+
					"data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r1\",\"usage\":{\"input_tokens\":10,\"output_tokens\":5,\"total_tokens\":15}}}\n\n")
			}))
			defer srv.Close()
			dir := t.TempDir()
			c := startConsole(t, "--json", "--speech-rate", "0", "--config-dir", dir, "--log-dir", dir,
				"--chat-api", api, "--url", srv.URL+"/v1", "--model", "tiny-1", "--key", "sk-flag")
			c.waitEvent("socket", map[string]any{"state": "ready"})
			fmt.Fprintln(c.stdin, "how did the tests go?")
			c.waitEvent("speech_start", map[string]any{"text": "All green."})
			c.waitEvent("speech_start", map[string]any{"text": "Want the slow ones?"})
			u := c.waitEvent("usage", nil)
			if u["total_tokens"] != float64(15) {
				t.Fatalf("usage %v", u)
			}
			c.stdin.Close()
			if code := <-c.exit; code != 0 {
				t.Fatalf("exit %d: %s", code, c.stderr.String())
			}
			mu.Lock()
			defer mu.Unlock()
			if len(got) != 1 || got[0]["model"] != "tiny-1" || auth[0] != "Bearer sk-flag" {
				t.Fatalf("request %v auth %q", got, auth)
			}
			if b, _ := json.Marshal(got[0]); !strings.Contains(string(b), "how did the tests go?") {
				t.Fatalf("the line did not go out: %s", b)
			}
		})
	}
}

func TestConsoleRefusesAnUnknownChatAPI(t *testing.T) {
	c := startConsole(t, "--chat-api", "carrier_pigeon")
	if code := <-c.exit; code != 2 || !strings.Contains(c.stderr.String(), "--chat-api must be one of push, responses, chat_completions") {
		t.Fatalf("exit %d: %s", code, c.stderr.String())
	}
}
