package mindui

import (
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"yui/app/core/route"
	"yui/app/memory"
	"yui/app/settings"
	"yui/app/view"
	"yui/app/view/viewtest"
)

type host struct {
	t     *testing.T
	dir   string
	store *settings.Store

	mu   sync.Mutex
	mems map[string]*memory.Store
}

func (h *host) Memory(id string) Memory {
	h.mu.Lock()
	defer h.mu.Unlock()
	if m := h.mems[id]; m != nil {
		return m
	}
	m, err := memory.Open(filepath.Join(h.dir, id+".json"), nil, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	h.mems[id] = m
	return m
}

func (h *host) SaveMCP(id string, servers []settings.MCPServer, grants settings.MCPGrants) error {
	return h.store.Change(func(s *settings.Settings) error {
		for i := range s.Presets {
			if s.Presets[i].ID == id {
				s.Presets[i].MCPServers, s.Presets[i].MCPGrants = servers, grants
			}
		}
		return nil
	})
}

type env struct {
	store  *settings.Store
	pages  *viewtest.Pages
	host   *host
	room   *Room
	routes *route.Table
	push   string // a push preset's id
	cc     string // a chat_completions preset's id
}

func newEnv(t *testing.T) *env {
	t.Helper()
	dir := t.TempDir()
	store, _, err := settings.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{store: store, pages: &viewtest.Pages{}, host: &host{t: t, dir: dir, store: store, mems: map[string]*memory.Store{}}}
	e.push = store.Get().Presets[0].ID
	cc := settings.NewPreset("Mika")
	cc.ChatAPI, cc.ChatBaseURL = "chat_completions", "http://127.0.0.1:11434/v1"
	e.cc = cc.ID
	if err := store.Change(func(s *settings.Settings) error { s.Presets = append(s.Presets, cc); return nil }); err != nil {
		t.Fatal(err)
	}
	e.room = New(Config{Store: store, Pages: e.pages, Host: e.host})
	e.routes = route.New(slog.New(slog.DiscardHandler))
	e.room.Routes(e.routes)
	return e
}

func (e *env) send(role string, v any) map[string]any {
	b, _ := json.Marshal(v)
	e.routes.Serve(view.Peer{Role: role}, view.Message{Type: view.TypeMindSave, Body: b})
	return e.pages.Last(view.RoleSettings, "", view.TypeMindResult)
}

func (e *env) preset(id string) map[string]any {
	m := e.pages.Sticky(view.RoleSettings, "", view.TypeSettingsMind)
	for _, p := range m["presets"].([]any) {
		if pm := p.(map[string]any); pm["id"] == id {
			return pm
		}
	}
	return nil
}

func TestPublishSaysWhereItApplies(t *testing.T) {
	e := newEnv(t)
	if err := e.host.Memory(e.cc).Set("The user is Ada.", []string{"likes tea"}); err != nil {
		t.Fatal(err)
	}
	e.room.Publish()
	p := e.preset(e.push)
	if p["applies"] != false || !strings.Contains(p["note"].(string), "off for her") {
		t.Fatalf("push preset %v", p)
	}
	c := e.preset(e.cc)
	if c["applies"] != true || c["summary"] != "The user is Ada." || c["facts"].([]any)[0] != "likes tea" {
		t.Fatalf("chat completions preset %v", c)
	}
}

func TestSaveMemoryAndMCP(t *testing.T) {
	e := newEnv(t)
	res := e.send(view.RoleSettings, view.MindSave{RequestID: "r1", Preset: e.cc,
		Memory: &view.MemoryForm{Summary: "edited", Facts: []string{"a", " ", "b"}}})
	if res["ok"] != true || res["request_id"] != "r1" {
		t.Fatalf("memory save %v", res)
	}
	if st := e.host.Memory(e.cc).State(); st.Summary != "edited" || len(st.Facts) != 2 {
		t.Fatalf("memory %+v", st)
	}
	res = e.send(view.RoleSettings, view.MindSave{RequestID: "r2", Preset: e.cc, MCP: &view.MCPForm{
		Servers: []view.MCPServerForm{{Name: "files", Command: "/bin/true"}},
		Grants:  []view.MCPGrantForm{{Tool: "mcp_files__read", Mode: "allow"}}}})
	if res["ok"] != true {
		t.Fatalf("mcp save %v", res)
	}
	all := e.store.Get()
	p, _ := all.Preset(e.cc)
	if len(p.MCPServers) != 1 || p.MCPGrants["mcp_files__read"] != "allow" {
		t.Fatalf("saved %+v", p)
	}
	if s := e.preset(e.cc)["servers"].([]any); len(s) != 1 {
		t.Fatalf("published servers %v", s)
	}
	// A bad value is refused naming the field, without the preset's index.
	res = e.send(view.RoleSettings, view.MindSave{RequestID: "r3", Preset: e.cc, MCP: &view.MCPForm{
		Servers: []view.MCPServerForm{{Name: "web", URL: "ftp://x"}}}})
	if res["ok"] != false || res["field"] != "mcp_servers[0].url" {
		t.Fatalf("bad url %v", res)
	}
	res = e.send(view.RoleSettings, view.MindSave{RequestID: "r4", Preset: e.cc,
		Memory: &view.MemoryForm{Summary: strings.Repeat("s", memory.MaxSummaryBytes+1)}})
	if res["ok"] != false || res["field"] != "summary" {
		t.Fatalf("long summary %v", res)
	}
	// MCP is off on push: refused, saying why.
	res = e.send(view.RoleSettings, view.MindSave{RequestID: "r5", Preset: e.push, MCP: &view.MCPForm{
		Servers: []view.MCPServerForm{{Name: "files", Command: "/bin/true"}}}})
	if res["ok"] != false || res["field"] != "mcp_servers" || !strings.Contains(res["error"].(string), "push") {
		t.Fatalf("push mcp %v", res)
	}
	// Only the settings window may save.
	before := len(e.pages.Of(view.RoleSettings, "", view.TypeMindResult))
	e.send(view.RolePet, view.MindSave{RequestID: "r6", Preset: e.cc, Memory: &view.MemoryForm{}})
	if len(e.pages.Of(view.RoleSettings, "", view.TypeMindResult)) != before || e.host.Memory(e.cc).State().Summary != "edited" {
		t.Fatal("a pet page's mind_save was applied")
	}
}
