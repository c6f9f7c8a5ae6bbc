package memory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/memory"
	"yui/transport"
	"yui/transport/chatcompletions"
)

// ccServer is a strict Chat Completions test server: it refuses a body
// that is not a streamed chat request, answers a summary request (its
// system part is the summary instructions) with the scripted summary and
// every other request with reply(n), and records each request's messages.
type ccServer struct {
	t       *testing.T
	srv     *httptest.Server
	summary func(prompt string) string
	reply   func(n int, msgs []msg) (text string, call string)

	mu        sync.Mutex
	turns     [][]msg // the turn requests' messages
	summaries []string
	tools     [][]string
}

type msg struct {
	Role       string `json:"role"`
	Content    any    `json:"content"`
	ToolCallID string `json:"tool_call_id"`
}

func (m msg) text() string { s, _ := m.Content.(string); return s }

func newCC(t *testing.T) *ccServer {
	s := &ccServer{t: t}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *ccServer) serve(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Model    string `json:"model"`
		Messages []msg  `json:"messages"`
		Stream   bool   `json:"stream"`
		Tools    []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&b) != nil || b.Model == "" || !b.Stream || len(b.Messages) == 0 {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	for _, m := range b.Messages {
		if m.Role != "system" && m.Role != "user" && m.Role != "assistant" && m.Role != "tool" {
			http.Error(w, `{"error":{"message":"bad role"}}`, http.StatusBadRequest)
			return
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	if b.Messages[0].Role == "system" && b.Messages[0].text() == chatcompletions.SummaryInstructions {
		if len(b.Tools) != 0 || len(b.Messages) != 2 {
			http.Error(w, `{"error":{"message":"summary request with tools or history"}}`, http.StatusBadRequest)
			return
		}
		prompt := b.Messages[1].text()
		s.mu.Lock()
		s.summaries = append(s.summaries, prompt)
		s.mu.Unlock()
		writeSSE(w, content(s.summary(prompt)), finish("stop"))
		return
	}
	var names []string
	for _, tl := range b.Tools {
		names = append(names, tl.Function.Name)
	}
	s.mu.Lock()
	n := len(s.turns)
	s.turns = append(s.turns, b.Messages)
	s.tools = append(s.tools, names)
	s.mu.Unlock()
	text, call := s.reply(n, b.Messages)
	if call != "" {
		writeSSE(w, call, finish("tool_calls"))
		return
	}
	writeSSE(w, content(text), finish("stop"))
}

func writeSSE(w http.ResponseWriter, data ...string) {
	for _, d := range data {
		fmt.Fprintf(w, "data: %s\n\n", d)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func content(s string) string {
	b, _ := json.Marshal(s)
	return `{"choices":[{"index":0,"delta":{"content":` + string(b) + `}}]}`
}

func finish(reason string) string {
	return `{"choices":[{"index":0,"delta":{},"finish_reason":"` + reason + `"}]}`
}

func toolCall(id, name, args string) string {
	a, _ := json.Marshal(args)
	return `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"` + id + `","type":"function","function":{"name":"` + name + `","arguments":` + string(a) + `}}]}}]}`
}

func (s *ccServer) lastTurn() []msg {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turns[len(s.turns)-1]
}

// character is a Chat Completions transport with the store as memory.
type character struct {
	t    *testing.T
	tr   transport.Transport
	ends chan string
}

func newCharacter(t *testing.T, srv *ccServer, mem *memory.Store, window int) *character {
	t.Helper()
	c := &character{t: t, ends: make(chan string, 8)}
	tr, err := chatcompletions.New(chatcompletions.Config{
		Endpoint: func() string { return srv.srv.URL + "/v1" },
		Key:      func() string { return "sk-test" },
		Params: func() chatcompletions.Params {
			return chatcompletions.Params{Model: "m-1", Card: "You are Yui.", ContextWindow: window}
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

// say sends one turn and waits for its end.
func (c *character) say(id, text string) {
	c.t.Helper()
	if err := c.tr.SendTurn(context.Background(), transport.Turn{TurnID: id, Text: text}); err != nil {
		c.t.Fatal(err)
	}
	select {
	case got := <-c.ends:
		if got != id {
			c.t.Fatalf("turn end %s, want %s", got, id)
		}
	case <-time.After(30 * time.Second):
		c.t.Fatalf("no turn end for %s", id)
	}
}

var pad = strings.Repeat("and so on ", 60) // 600 bytes, 150 tokens

func joined(msgs []msg) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Role + ": " + m.text() + "\n")
	}
	return b.String()
}

// TestLongChatKeepsItsStart is the memory proof: with a small
// window the first message no longer goes with the requests, but its
// content does, as the summary the same model wrote; the user's edit and
// clear are what the next requests carry.
func TestLongChatKeepsItsStart(t *testing.T) {
	srv := newCC(t)
	// The scripted model: the previous summary, then a line per message
	// folded in ("The user is Ada; she loves green tea." for the first).
	srv.summary = func(prompt string) string {
		prev, msgs, _ := strings.Cut(strings.TrimPrefix(prompt, "Previous summary:\n"), "\n\nMessages to fold in, oldest first:\n")
		out := []string{}
		if prev != "(none)" {
			out = append(out, prev)
		}
		for _, l := range strings.Split(strings.TrimSpace(msgs), "\n") {
			if strings.HasPrefix(l, "User: My name is Ada") {
				out = append(out, "The user is Ada; she loves green tea.")
			} else if len(l) > 0 {
				out = append(out, "("+strings.SplitN(l, ".", 2)[0]+")")
			}
		}
		return strings.Join(out, " ")
	}
	srv.reply = func(n int, _ []msg) (string, string) { return fmt.Sprintf("Reply %d. %s", n, pad), "" }
	mem, err := memory.Open(filepath.Join(t.TempDir(), "memory-p.json"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 2000 tokens: three quarters less the 1024 reserved leave about 450,
	// two exchanges of these.
	c := newCharacter(t, srv, mem, 2000)
	c.say("t0", "My name is Ada and I love green tea. "+pad)
	for i := 1; i < 4; i++ {
		c.say(fmt.Sprintf("t%d", i), fmt.Sprintf("Message %d. %s", i, pad))
	}
	last := c.lastTurnChecked(t, srv)
	if strings.Contains(joined(last), "My name is Ada") {
		t.Fatalf("the first message still goes whole with the request: the window is not small enough:\n%s", joined(last))
	}
	if !strings.Contains(last[0].text(), "The user is Ada; she loves green tea.") || !strings.HasPrefix(last[0].text(), "You are Yui.") {
		t.Fatalf("system part %q lacks the card and the summary", last[0].text())
	}
	srv.mu.Lock()
	first := srv.summaries[0]
	srv.mu.Unlock()
	if !strings.Contains(first, "Previous summary:\n(none)") || !strings.Contains(first, "User: My name is Ada") {
		t.Fatalf("first summary request %q", first)
	}
	st := mem.State()
	if !strings.Contains(st.Summary, "Ada") || st.Covered == "" {
		t.Fatalf("stored memory %+v", st)
	}

	// The user edits what she remembers: the next request carries the
	// edit, and the next summary starts from it.
	if err := mem.Set("The user is called Ada Lovelace.", []string{"drinks green tea"}); err != nil {
		t.Fatal(err)
	}
	c.say("t4", "Message 4. "+pad)
	sys := srv.lastTurn()[0].text()
	if !strings.Contains(sys, "The user is called Ada Lovelace.") || strings.Contains(sys, "she loves green tea") || !strings.Contains(sys, "- drinks green tea") {
		t.Fatalf("system part after the edit: %q", sys)
	}
	srv.mu.Lock()
	lastPrompt := srv.summaries[len(srv.summaries)-1]
	srv.mu.Unlock()
	if !strings.Contains(lastPrompt, "Previous summary:\nThe user is called Ada Lovelace.") {
		t.Fatalf("the summary after the edit did not start from it: %q", lastPrompt)
	}

	// Cleared: nothing of it goes with the next request, and what it had
	// covered is not summarised again.
	if err := mem.Clear(); err != nil {
		t.Fatal(err)
	}
	srv.summary = func(prompt string) string {
		if strings.Contains(prompt, "My name is Ada") {
			t.Errorf("the cleared memory's messages were summarised again: %q", prompt)
		}
		return "Later talk."
	}
	c.say("t5", "Message 5. "+pad)
	sys = srv.lastTurn()[0].text()
	if strings.Contains(sys, "Ada") {
		t.Fatalf("system part after clear: %q", sys)
	}
}

func (c *character) lastTurnChecked(t *testing.T, srv *ccServer) []msg {
	t.Helper()
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.summaries) == 0 {
		t.Fatalf("no summary request was made; turns sent:\n%s", joined(srv.turns[len(srv.turns)-1]))
	}
	return srv.turns[len(srv.turns)-1]
}

// TestNewConversationKeepsMemory: a reset starts a fresh transcript; the
// summary still goes with the next request.
func TestNewConversationKeepsMemory(t *testing.T) {
	srv := newCC(t)
	srv.summary = func(string) string { return "unused" }
	srv.reply = func(int, []msg) (string, string) { return "Hello.", "" }
	mem, _ := memory.Open(filepath.Join(t.TempDir(), "m.json"), nil, nil)
	if err := mem.Set("The user is Ada.", nil); err != nil {
		t.Fatal(err)
	}
	c := newCharacter(t, srv, mem, 8192)
	c.say("a", "hi")
	if err := c.tr.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.say("b", "hi again")
	last := srv.lastTurn()
	if len(last) != 2 || !strings.Contains(last[0].text(), "The user is Ada.") || last[1].text() != "hi again" {
		t.Fatalf("after new conversation: %s", joined(last))
	}
}
