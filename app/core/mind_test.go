package core

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"yui/app/core/settingsui"
	"yui/app/view"
)

// toolChat is a Chat Completions backend that calls mcp_web__echo once it
// is declared, and answers a tool result with "Done: <result>."; it keeps
// each request's system part.
type toolChat struct {
	mu      sync.Mutex
	systems []string
}

func (s *toolChat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if json.NewDecoder(r.Body).Decode(&body) != nil || len(body.Messages) == 0 {
		http.Error(w, "bad request", 400)
		return
	}
	sys, _ := body.Messages[0].Content.(string)
	s.mu.Lock()
	s.systems = append(s.systems, sys)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	last := body.Messages[len(body.Messages)-1]
	declared := false
	for _, t := range body.Tools {
		declared = declared || t.Function.Name == "mcp_web__echo"
	}
	switch {
	case last.Role == "tool":
		c, _ := json.Marshal("Done: " + fmt.Sprint(last.Content) + ".")
		fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\n", c)
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
	case declared:
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"mcp_web__echo","arguments":"{\"text\":\"hi\"}"}}]}}]}`+"\n\n")
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n")
	default:
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"No tools.\"}}]}\n\n")
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

type echoIn struct {
	Text string `json:"text"`
}

// A character on Chat Completions gets the MCP server and memory the
// settings window saved for her: the server's tool is declared, its first
// call asks in her page, the answer "always" is saved, the result reaches
// her backend and her reply; her facts ride in the system part.
func TestMindSavedInSettingsReachesHerRequests(t *testing.T) {
	t.Parallel() // real-time speech on its own core and demo backend
	mcpSrv := sdk.NewServer(&sdk.Implementation{Name: "web", Version: "1"}, nil)
	sdk.AddTool(mcpSrv, &sdk.Tool{Name: "echo", Description: "Echo."},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcpSrv }, nil))
	t.Cleanup(hs.Close)
	be := &toolChat{}
	srv := httptest.NewServer(be)
	t.Cleanup(srv.Close)

	st := startCore(t, Options{Demo: true, DemoAddr: "127.0.0.1:0"})
	yui := st.c.Settings().Get().Presets[0]
	sc := st.dial(t, view.RoleSettings, "")
	sp := readPage(sc)
	sp.wait(t, "settings_mind saying MCP is off on push", func(_ []map[string]any, l map[string]map[string]any) bool {
		m := l[view.TypeSettingsMind]
		return m != nil && strings.Contains(fmt.Sprint(m["presets"]), "off for her")
	})
	f := settingsui.Form(yui).PresetFields
	f.ChatAPI, f.ChatBaseURL, f.Model = "chat_completions", srv.URL+"/v1", "m"
	send(t, sc, map[string]any{"type": "save_settings", "request_id": "s1", "active_preset": yui.ID, "presets": []any{f}})
	if r := sp.result(t, "s1"); r["ok"] != true {
		t.Fatalf("save %v", r)
	}
	send(t, sc, map[string]any{"type": "mind_save", "request_id": "m1", "preset": yui.ID,
		"memory": map[string]any{"summary": "", "facts": []string{"The user's name is Ada"}},
		"mcp":    map[string]any{"servers": []any{map[string]any{"name": "web", "url": hs.URL}}, "grants": []any{}}})
	if r := sp.answer(t, view.TypeMindResult, "m1"); r["ok"] != true {
		t.Fatalf("mind_save %v", r)
	}
	waitFor(t, "her MCP server's tools", func() bool {
		pt := st.c.pet(yui.ID)
		return pt != nil && pt.MCP != nil && len(pt.MCP.Tools()) == 1
	})
	pet := readPage(st.dial(t, view.RolePet, yui.ID))
	pet.wait(t, "ready", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePlate] != nil && l[view.TypePlate]["kind"] == ""
	})
	send(t, st.dial(t, view.RolePet, yui.ID), map[string]any{"type": "send_text", "text": "echo hi"})
	var id float64
	pet.wait(t, "the tool's prompt", func(_ []map[string]any, l map[string]map[string]any) bool {
		p := l[view.TypePermission]
		if p == nil || p["tool"] == nil {
			return false
		}
		id, _ = p["id"].(float64)
		return strings.Contains(p["text"].(string), "echo of the MCP server web")
	})
	send(t, st.dial(t, view.RolePet, yui.ID), map[string]any{"type": "permission_answer", "id": uint64(id), "answer": "always"})
	pet.wait(t, "the reply with the tool's result", func(all []map[string]any, _ map[string]map[string]any) bool {
		return bubbleSaid(all, "Done: echo: hi.")
	})
	all := st.c.Settings().Get()
	saved, _ := all.Preset(yui.ID)
	if saved.MCPGrants["mcp_web__echo"] != "allow" {
		t.Fatalf("grants %v", saved.MCPGrants)
	}
	be.mu.Lock()
	defer be.mu.Unlock()
	if last := be.systems[len(be.systems)-1]; !strings.Contains(last, "- The user's name is Ada") {
		t.Fatalf("system part %q", last)
	}
}
