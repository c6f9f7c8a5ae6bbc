package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/mcp"
	"yui/app/permission"
	"yui/app/settings"
	"yui/transport"
	"yui/transport/chatcompletions"
)

// ccBackend is a Chat Completions test server: each turn's first request
// is answered with a call of the tool the test names, the request after
// it with "Done."; it records the tool messages and the tools declared.
type ccBackend struct {
	srv *httptest.Server

	mu      sync.Mutex
	call    string // the tool name to call, with args
	args    string
	results []string
	tools   [][]string
}

func newBackend(t *testing.T) *ccBackend {
	b := &ccBackend{}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Model    string `json:"model"`
			Stream   bool   `json:"stream"`
			Messages []struct {
				Role       string `json:"role"`
				Content    any    `json:"content"`
				ToolCallID string `json:"tool_call_id"`
			} `json:"messages"`
			Tools []struct {
				Type     string `json:"type"`
				Function struct {
					Name       string          `json:"name"`
					Parameters json.RawMessage `json:"parameters"`
				} `json:"function"`
			} `json:"tools"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&body) != nil || body.Model == "" || !body.Stream {
			http.Error(w, `{"error":{"message":"bad request"}}`, 400)
			return
		}
		var names []string
		for _, tl := range body.Tools {
			if tl.Type != "function" || len(tl.Function.Name) > 64 || !json.Valid(tl.Function.Parameters) {
				http.Error(w, `{"error":{"message":"bad tool"}}`, 400)
				return
			}
			names = append(names, tl.Function.Name)
		}
		last := body.Messages[len(body.Messages)-1]
		b.mu.Lock()
		b.tools = append(b.tools, names)
		call, args := b.call, b.args
		if last.Role == "tool" {
			s, _ := last.Content.(string)
			b.results = append(b.results, s)
			call = ""
		}
		b.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		if call != "" {
			a, _ := json.Marshal(args)
			fmt.Fprintf(w, "data: %s\n\n", `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"`+call+`","arguments":`+string(a)+`}}]}}]}`)
			fmt.Fprintf(w, "data: %s\n\n", `{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
		} else {
			fmt.Fprintf(w, "data: %s\n\n", `{"choices":[{"index":0,"delta":{"content":"Done."}}]}`)
			fmt.Fprintf(w, "data: %s\n\n", `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(b.srv.Close)
	return b
}

func (b *ccBackend) lastResult(t *testing.T) string {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.results) == 0 {
		t.Fatal("no tool result reached the backend")
	}
	return b.results[len(b.results)-1]
}

// rig is a character: a Chat Completions transport with the hub's tools.
type rig struct {
	t       *testing.T
	be      *ccBackend
	hub     *mcp.Hub
	tr      transport.Transport
	ends    chan string
	prompts chan permission.Prompt
	listed  chan struct{}
	clock   *clock

	mu     sync.Mutex
	pill   []string
	grants map[string]string
}

type clock struct {
	mu sync.Mutex
	at time.Time
}

func (c *clock) now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.at }
func (c *clock) advance(d time.Duration) { c.mu.Lock(); c.at = c.at.Add(d); c.mu.Unlock() }
func (r *rig) pillSeen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.pill...)
}
func (r *rig) grant(tool string) string { r.mu.Lock(); defer r.mu.Unlock(); return r.grants[tool] }
func (r *rig) setCall(name, args string) {
	r.be.mu.Lock()
	r.be.call, r.be.args = name, args
	r.be.mu.Unlock()
}

func newRig(t *testing.T, srv settings.MCPServer) *rig {
	t.Helper()
	r := &rig{t: t, be: newBackend(t), ends: make(chan string, 8), prompts: make(chan permission.Prompt, 4), listed: make(chan struct{}, 1),
		clock: &clock{at: time.Unix(1e9, 0)}, grants: map[string]string{}}
	r.hub = mcp.New(mcp.Config{
		Preset: "p-00000001", Backend: "the test backend",
		Servers:  []settings.MCPServer{srv},
		CallWait: 2 * time.Second,
		SaveGrant: func(tool, mode string) error {
			r.mu.Lock()
			r.grants[tool] = mode
			r.mu.Unlock()
			return nil
		},
		OnPrompt: func(p permission.Prompt) { r.prompts <- p },
		OnTools: func(string) {
			select {
			case r.listed <- struct{}{}:
			default:
			}
		},
		Now: r.clock.now,
	})
	t.Cleanup(r.hub.Close)
	tr, err := chatcompletions.New(chatcompletions.Config{
		Endpoint:  func() string { return r.be.srv.URL + "/v1" },
		Params:    func() chatcompletions.Params { return chatcompletions.Params{Model: "m-1", ContextWindow: 8192} },
		MoreTools: r.hub.Tools,
	})
	if err != nil {
		t.Fatal(err)
	}
	tr.Start(transport.HandlerFuncs{Event: func(ev transport.Event) {
		switch e := ev.(type) {
		case transport.ToolStatus:
			r.mu.Lock()
			r.pill = append(r.pill, e.ToolID+" "+e.State)
			r.mu.Unlock()
		case transport.TurnEnd:
			r.ends <- e.TurnID
		}
	}})
	t.Cleanup(func() { tr.Close() })
	r.tr = tr
	return r
}

// waitTools waits until the hub listed the server's tools.
func (r *rig) waitTools() {
	r.t.Helper()
	r.hub.Start()
	select {
	case <-r.listed:
	case <-time.After(20 * time.Second):
		r.t.Fatal("the MCP server's tools were never listed")
	}
	if len(r.hub.Tools()) == 0 {
		r.t.Fatal("listed, but no tools offered")
	}
}

// turn runs one turn whose model calls tool; answer, when set, answers
// the prompt.
func (r *rig) turn(id, tool, args string, answer *permission.Choice) string {
	r.t.Helper()
	r.setCall(tool, args)
	if err := r.tr.SendTurn(context.Background(), transport.Turn{TurnID: id, Text: "go"}); err != nil {
		r.t.Fatal(err)
	}
	if answer != nil {
		select {
		case p := <-r.prompts:
			if !mcp.IsPrompt(p.ID) || !strings.Contains(p.Text(), "asks to use the tool") {
				r.t.Fatalf("prompt %+v: %q", p, p.Text())
			}
			if err := r.hub.Answer(p.ID, *answer); err != nil {
				r.t.Fatal(err)
			}
		case <-time.After(20 * time.Second):
			r.t.Fatal("no prompt")
		}
	}
	select {
	case got := <-r.ends:
		if got != id {
			r.t.Fatalf("turn end %s, want %s", got, id)
		}
	case <-time.After(30 * time.Second):
		r.t.Fatalf("no turn end for %s", id)
	}
	return r.be.lastResult(r.t)
}

func choice(c permission.Choice) *permission.Choice { return &c }

func stdioServer(t *testing.T) settings.MCPServer {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return settings.MCPServer{Name: "tools", Command: exe, Args: []string{"mcp-test-server"}}
}

// TestStdioServerEndToEnd: a real stdio MCP server built from the SDK,
// its tools declared namespaced to a Chat Completions server that calls
// them; the prompt, the result, a clean environment, a crash and a hang,
// each restarted with back-off.
func TestStdioServerEndToEnd(t *testing.T) {
	t.Setenv("YUI_KEY", "sk-must-not-leak")
	t.Setenv("OPENAI_API_KEY", "sk-must-not-leak-either")
	r := newRig(t, stdioServer(t))
	r.waitTools()

	// Deny first: the model hears it, nothing is saved as allowed.
	if got := r.turn("t0", "mcp_tools__echo", `{"text":"hello"}`, choice(permission.Deny)); !strings.Contains(got, "denied") {
		t.Fatalf("denied call answered %q", got)
	}
	if r.grant("mcp_tools__echo") != "deny" {
		t.Fatalf("deny not saved: %q", r.grant("mcp_tools__echo"))
	}
	// Allow once for another tool; then always.
	if got := r.turn("t1", "mcp_tools__env", `{}`, choice(permission.Once)); strings.Contains(got, "sk-must-not-leak") || !strings.Contains(got, "PATH=") {
		t.Fatalf("the server's environment: %q", got)
	}
	if got := r.turn("t2", "mcp_tools__env", `{}`, choice(permission.Always)); strings.Contains(got, "YUI_KEY") {
		t.Fatalf("env leaked: %q", got)
	}
	if r.grant("mcp_tools__env") != "allow" {
		t.Fatal("always not saved")
	}
	if got := r.turn("t3", "mcp_tools__env", `{}`, nil); !strings.Contains(got, "PATH=") { // no prompt now
		t.Fatalf("always-allowed call: %q", got)
	}
	pill := strings.Join(r.pillSeen(), ",")
	if !strings.Contains(pill, "mcp_tools__env running,mcp_tools__env done") || !strings.Contains(pill, "mcp_tools__echo failed") {
		t.Fatalf("pill %s", pill)
	}
	r.mu.Lock()
	declared := strings.Join(r.be.tools[0], ",")
	r.mu.Unlock()
	for _, n := range []string{"mcp_tools__echo", "mcp_tools__crash", "mcp_tools__hang"} {
		if !strings.Contains(declared, n) {
			t.Fatalf("tools[] %s lacks %s", declared, n)
		}
	}

	// A crash: a clear error; during the back-off a clear error too; then
	// a new process answers.
	r.turn("t4", "mcp_tools__crash", `{}`, choice(permission.Always))
	if got := r.be.lastResult(t); !strings.HasPrefix(got, "error: MCP server tools failed on crash (it is being restarted)") {
		t.Fatalf("crash answered %q", got)
	}
	r.turn("t5", "mcp_tools__env", `{}`, nil)
	if got := r.be.lastResult(t); !strings.HasPrefix(got, "error: MCP server tools is down (restarting in") {
		t.Fatalf("during the back-off: %q", got)
	}
	r.clock.advance(mcp.BackoffMin)
	if got := r.turn("t6", "mcp_tools__env", `{}`, nil); !strings.Contains(got, "PATH=") {
		t.Fatalf("after the restart: %q", got)
	}

	// A hang: the call's wait passes, the server is restarted.
	if got := r.turn("t7", "mcp_tools__hang", `{}`, choice(permission.Always)); !strings.HasPrefix(got, "error: MCP server tools did not answer hang within 2s; it is being restarted") {
		t.Fatalf("hang answered %q", got)
	}
	r.clock.advance(mcp.BackoffMax)
	if got := r.turn("t8", "mcp_tools__env", `{}`, nil); !strings.Contains(got, "PATH=") {
		t.Fatalf("after the hang: %q", got)
	}
	// A flood: a message over the bound drops the connection; the call
	// answers at once and the server is restarted.
	if got := r.turn("t10", "mcp_tools__floodline", `{}`, choice(permission.Once)); !strings.HasPrefix(got, "error: MCP server tools failed on floodline (it is being restarted)") {
		t.Fatalf("floodline answered %q", got)
	}
	r.clock.advance(mcp.BackoffMax)
	if got := r.turn("t11", "mcp_tools__env", `{}`, nil); !strings.Contains(got, "PATH=") {
		t.Fatalf("after the flood: %q", got)
	}
	// A result over the bound is a clear error.
	if got := r.turn("t9", "mcp_tools__flood", `{}`, choice(permission.Once)); !strings.Contains(got, "over the 65536 a result may have") {
		t.Fatalf("flood answered %q", got)
	}
}

// TestHTTPServerEndToEnd: the same over streamable HTTP.
func TestHTTPServerEndToEnd(t *testing.T) {
	hs := httpServer(t)
	r := newRig(t, settings.MCPServer{Name: "web", URL: hs.URL})
	r.waitTools()
	if got := r.turn("h1", "mcp_web__echo", `{"text":"over http"}`, choice(permission.Always)); !strings.HasPrefix(got, "echo: over http") {
		t.Fatalf("http echo %q", got)
	}
	if got := r.turn("h2", "mcp_web__hang", `{}`, choice(permission.Once)); !strings.Contains(got, "did not answer hang within 2s") {
		t.Fatalf("http hang %q", got)
	}
}

// TestSilentServerHoldsNoTurn: while a server takes its time to start,
// the turn's tool list is read at once (it has no tools yet), and Close
// stops it without waiting out the start.
func TestSilentServerHoldsNoTurn(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	hub := mcp.New(mcp.Config{Servers: []settings.MCPServer{{Name: "slow", Command: exe, Args: []string{"mcp-silent"}}}})
	hub.Start()
	got := make(chan int, 1)
	go func() { got <- len(hub.Tools()) }()
	select {
	case n := <-got:
		if n != 0 {
			t.Fatalf("%d tools from a server that never started", n)
		}
	case <-time.After(mcp.ConnectWait / 2):
		t.Fatal("Tools waited on a server's start")
	}
	closed := make(chan struct{})
	go func() { hub.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(mcp.ConnectWait / 2):
		t.Fatal("Close waited for a server's start to time out")
	}
}
