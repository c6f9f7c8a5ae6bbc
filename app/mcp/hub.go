package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"yui/app/permission"
	"yui/app/settings"
	"yui/transport"
)

// Config is what a character's hub is made from.
type Config struct {
	// Preset is her id; Backend names her backend in prompts.
	Preset, Backend string
	// Servers are her preset's MCP servers (those Off are left out).
	Servers []settings.MCPServer
	// Grants are the saved answers; SaveGrant saves a new one ("allow"
	// for always, "deny"), nil keeps it in memory.
	Grants    settings.MCPGrants
	SaveGrant func(tool, mode string) error
	// OnPrompt shows a tool's prompt; OnPromptClosed withdraws one that
	// was not answered in time.
	OnPrompt       func(permission.Prompt)
	OnPromptClosed func(id uint64)
	// HTTPClient reaches the streamable HTTP servers; nil is a client of
	// its own (no redirects followed).
	HTTPClient *http.Client
	// CallWait bounds a call's answer; zero is CallWait (tests shorten it).
	CallWait time.Duration
	// OnTools, when set, is told each time a server listed its tools
	// (they are offered from the next turn on).
	OnTools func(server string)
	// Now is the clock (the back-off); nil is time.Now.
	Now    func() time.Time
	Logger *slog.Logger
}

// Hub is one character's MCP servers.
type Hub struct {
	servers []*server
	ask     *asker
	log     *slog.Logger
}

// New makes the hub; nothing starts until Start (or a call).
func New(cfg Config) *Hub {
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	h := &Hub{log: lg, ask: &asker{preset: cfg.Preset, backend: cfg.Backend, save: cfg.SaveGrant,
		onPrompt: cfg.OnPrompt, onClosed: cfg.OnPromptClosed, log: lg,
		grants: map[string]string{}, open: map[uint64]chan permission.Choice{}}}
	for k, v := range cfg.Grants {
		h.ask.grants[k] = v
	}
	for _, s := range cfg.Servers {
		if s.Off {
			continue
		}
		wait := cfg.CallWait
		if wait <= 0 {
			wait = CallWait
		}
		stop, stopNow := context.WithCancel(context.Background())
		h.servers = append(h.servers, &server{cfg: s, hc: hc, log: lg.With("mcp_server", s.Name), now: now, callWait: wait,
			onTools: cfg.OnTools, stop: stop, stopNow: stopNow})
	}
	return h
}

// Start starts every server in the background (their tools are offered
// from the turn after they listed them).
func (h *Hub) Start() {
	for _, s := range h.servers {
		go func() { _, _ = s.session(context.Background()) }()
	}
}

// Close stops every server and returns once their processes are gone: a
// stdio server's input is closed, and it is killed if it has not exited
// 2 s later.
func (h *Hub) Close() {
	var wg sync.WaitGroup
	for _, s := range h.servers {
		wg.Go(s.close)
	}
	wg.Wait()
}

// Answer is the user's answer to an MCP prompt (IsPrompt(id)).
func (h *Hub) Answer(id uint64, c permission.Choice) error { return h.ask.answer(id, c) }

// Tools are the tools the servers listed, namespaced (Name): the
// transport's MoreTools.
func (h *Hub) Tools() []transport.Tool {
	var out []transport.Tool
	for _, s := range h.servers {
		for _, t := range s.listed() {
			out = append(out, &tool{hub: h, srv: s, name: Name(s.cfg.Name, t.Name), remote: t.Name,
				desc: description(t), params: schema(t)})
		}
	}
	return out
}

// schema is a tool's input schema as a function's parameters: an object
// schema within 16 KiB (the APIs refuse any other), else an open object.
func schema(t *sdk.Tool) json.RawMessage {
	open := json.RawMessage(`{"type":"object"}`)
	raw, err := json.Marshal(t.InputSchema)
	if err != nil || len(raw) > 16<<10 {
		return open
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return open
	}
	if typ, ok := m["type"]; ok && typ != "object" {
		return open
	}
	m["type"] = "object"
	b, err := json.Marshal(m)
	if err != nil {
		return open
	}
	return b
}

// tool is one server tool as a client tool.
type tool struct {
	hub    *Hub
	srv    *server
	name   string // namespaced
	remote string // the server's name for it
	desc   string
	params json.RawMessage
}

var _ transport.Tool = (*tool)(nil)

func (t *tool) Schema() transport.FunctionSchema {
	return transport.FunctionSchema{Name: t.name, Description: t.desc, Parameters: t.params}
}

// Wait covers the prompt, a start and the call.
func (t *tool) Wait() time.Duration { return PromptWait + ConnectWait + CallWait }

func (t *tool) Validate(json.RawMessage) error { return nil }

// ShowInPill: the pill shows an MCP tool running and done
// (request.PillTool).
func (t *tool) ShowInPill() bool { return true }

func (t *tool) Run(ctx context.Context, c transport.ToolCall) (string, []string, error) {
	if err := t.hub.ask.allow(ctx, t.name, t.srv.cfg.Name, t.remote); err != nil {
		return "", nil, err
	}
	res, imgs, err := t.srv.call(ctx, t.remote, c.Arguments)
	if err != nil {
		t.hub.log.Warn("mcp.call_failed", "tool", t.name, "err", err.Error())
		return "", nil, err
	}
	t.hub.log.Info("mcp.called", "tool", t.name, "bytes", len(res), "images", len(imgs))
	return res, imgs, nil
}
