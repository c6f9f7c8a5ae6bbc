package memory_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"yui/app/memory"
	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/responses"
)

// respServer is a Responses test server: chained, it keeps the
// conversation (previous_response_id); unchained, it refuses the field as
// llama-server does, and the client sends its transcript. It records the
// turn requests' instructions and input, and answers a summary request
// (its instructions are the summary instructions) with a scripted summary.
type respServer struct {
	srv     *httptest.Server
	chained bool

	mu        sync.Mutex
	instr     []string
	inputs    []string
	summaries int
	n         int
}

func newResp(t *testing.T, chained bool) *respServer {
	s := &respServer{chained: chained}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b struct {
			Model        string            `json:"model"`
			Instructions string            `json:"instructions"`
			Input        []json.RawMessage `json:"input"`
			Previous     string            `json:"previous_response_id"`
			Stream       bool              `json:"stream"`
		}
		if r.URL.Path != "/v1/responses" || json.NewDecoder(r.Body).Decode(&b) != nil || b.Model == "" || !b.Stream || len(b.Input) == 0 {
			http.Error(w, `{"error":{"message":"bad request"}}`, 400)
			return
		}
		if b.Previous != "" && !s.chained {
			http.Error(w, `{"error":{"message":"previous_response_id is not supported"}}`, 400)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		s.mu.Lock()
		reply := ""
		if b.Instructions == chatcompletions.SummaryInstructions {
			s.summaries++
			reply = "The user is Ada; she loves green tea."
		} else {
			s.instr = append(s.instr, b.Instructions)
			raw, _ := json.Marshal(b.Input)
			s.inputs = append(s.inputs, string(raw))
			reply = fmt.Sprintf("Reply %d. %s", s.n, pad)
		}
		s.n++
		id := fmt.Sprintf("resp_%d", s.n)
		s.mu.Unlock()
		d, _ := json.Marshal(reply)
		fmt.Fprintf(w, "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":%s}\n\n", d)
		fmt.Fprintf(w, "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"%s\",\"output\":[]}}\n\n", id)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func respCharacter(t *testing.T, s *respServer, mem *memory.Store) *character {
	t.Helper()
	c := &character{t: t, ends: make(chan string, 8)}
	tr, err := responses.New(responses.Config{
		Endpoint: func() string { return s.srv.URL + "/v1" },
		Params: func() chatcompletions.Params {
			return chatcompletions.Params{Model: "m-1", Card: "You are Yui.", ContextWindow: 2000}
		},
		Tools:  mem.Tools(),
		Memory: mem,
	})
	if err != nil {
		t.Fatal(err)
	}
	tr.Start(transport.HandlerFuncs{Event: func(ev transport.Event) {
		if e, ok := ev.(transport.TurnEnd); ok {
			c.ends <- e.TurnID
		}
	}})
	t.Cleanup(func() { tr.Close() })
	c.tr = tr
	return c
}

// TestResponsesMemory: the memory rides in instructions on Responses; a
// chained server holds the conversation, so nothing is summarised for it;
// one that refuses chaining gets the transcript, and its start as the
// summary once it outgrows the window.
func TestResponsesMemory(t *testing.T) {
	for _, chained := range []bool{true, false} {
		t.Run(fmt.Sprintf("chained=%v", chained), func(t *testing.T) {
			s := newResp(t, chained)
			mem, _ := memory.Open(filepath.Join(t.TempDir(), "m.json"), nil, nil)
			if err := mem.Remember("The user's name is Ada"); err != nil {
				t.Fatal(err)
			}
			c := respCharacter(t, s, mem)
			c.say("t0", "My name is Ada and I love green tea. "+pad)
			for i := 1; i < 4; i++ {
				c.say(fmt.Sprintf("t%d", i), fmt.Sprintf("Message %d. %s", i, pad))
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			last := s.instr[len(s.instr)-1]
			if !strings.HasPrefix(last, "You are Yui.\n\n") || !strings.Contains(last, "- The user's name is Ada") {
				t.Fatalf("instructions %q", last)
			}
			if chained {
				if s.summaries != 0 {
					t.Fatalf("%d summary requests to a server that keeps the conversation", s.summaries)
				}
				return
			}
			if s.summaries == 0 || !strings.Contains(last, "The user is Ada; she loves green tea.") {
				t.Fatalf("summaries %d, instructions %q", s.summaries, last)
			}
			if strings.Contains(s.inputs[len(s.inputs)-1], "My name is Ada") {
				t.Fatal("the first message still goes whole with the request")
			}
		})
	}
}
