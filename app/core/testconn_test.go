package core

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"yui/app/settings"
	"yui/app/view"
)

func TestTestConnection(t *testing.T) {
	st := startCore(t, Options{Demo: true, DemoAddr: "127.0.0.1:0"})
	yui := st.c.Settings().Get().Presets[0]
	// One connection sends and is read: a settings page nobody reads
	// stalls the core's writes to every settings page.
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	ask := func(id, api, base string, key *string) map[string]any {
		t.Helper()
		m := map[string]any{"type": "test_connection", "request_id": id, "preset": yui.ID, "chat_api": api, "chat_base_url": base}
		if key != nil {
			m["key"] = *key
		}
		send(t, conn, m)
		return connectionTestAnswer(t, page, id)
	}
	if r := ask("push", "push", settings.DemoBaseURL, nil); r["kind"] != "ok" {
		t.Fatalf("push on the demo: %v", r)
	}
	r := ask("cc", "chat_completions", settings.DemoBaseURL, nil)
	if ms, _ := r["models"].([]any); r["kind"] != "ok" || len(ms) != 1 || ms[0] != "yui-demo" {
		t.Fatalf("chat completions on the demo: %v", r)
	}
	wrong := "not-the-key"
	if r := ask("wrong", "responses", settings.DemoBaseURL, &wrong); r["kind"] != "refused" {
		t.Fatalf("a wrong typed key: %v", r)
	}
	// Another URL in the form: the saved key does not go there.
	other := newModelServer(t)
	if r := ask("other", "chat_completions", other.URL, nil); r["kind"] != "ok" {
		t.Fatalf("other server: %v", r)
	}
	if auth := other.auth(); len(auth) != 1 || auth[0] != "" {
		t.Fatalf("the saved key went to another URL: %q", auth)
	}
}

// modelServer is an OpenAI-style server that lists two models and keeps
// the Authorization header of every request: what a key reached.
type modelServer struct {
	*httptest.Server
	mu    sync.Mutex
	heard []string
}

func newModelServer(t *testing.T) *modelServer {
	s := &modelServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.heard = append(s.heard, r.Header.Get("Authorization"))
		s.mu.Unlock()
		w.Write([]byte(`{"data":[{"id":"m1"},{"id":"m2"}]}`))
	}))
	t.Cleanup(s.Close)
	return s
}

// auth is the Authorization headers the server got, in order.
func (s *modelServer) auth() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.heard)
}

// Switching the demo character to Chat Completions applies at once, and
// it chats over the demo's OpenAI-compatible route.
func TestSwitchToChatCompletionsAndChat(t *testing.T) {
	st := startCore(t, Options{Demo: true, DemoAddr: "127.0.0.1:0"})
	yui := st.c.Settings().Get().Presets[0]
	pet := readPage(st.dial(t, view.RolePet, yui.ID))
	conn := st.dial(t, view.RoleSettings, "")
	f := presetForm(yui).PresetFields
	f.ChatAPI = "chat_completions"
	before := st.c.pet(yui.ID)
	send(t, conn, map[string]any{"type": "save_settings", "request_id": "s1", "active_preset": yui.ID, "presets": []any{f}})
	// The new pet, not only the saved setting: a line sent before it is
	// installed would reach the closed one.
	waitFor(t, "the saved chat_api and its new pet", func() bool {
		p, _ := st.c.presetNow(yui.ID)
		return p.ChatAPI == "chat_completions" && st.c.pet(yui.ID) != before
	})
	pet = readPage(st.dial(t, view.RolePet, yui.ID))
	pet.wait(t, "ready", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePlate] != nil && l[view.TypePlate]["kind"] == ""
	})
	send(t, st.dial(t, view.RolePet, yui.ID), map[string]any{"type": "send_text", "text": "hello"})
	pet.wait(t, "a spoken reply", func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, m := range all {
			if m["type"] == view.TypeBubble && m["kind"] == "speech" && m["text"] != "" {
				return true
			}
		}
		return false
	})
}

// Test connection names the cause: a refused port with host:port, and a
// server that answers the push upgrade with 404 as "not the push protocol"
// with the settings hint.
func TestTestConnectionNamesTheCause(t *testing.T) {
	st := startCore(t, Options{})
	yui := st.c.Settings().Get().Presets[0]
	// One connection sends and is read: a settings page nobody reads
	// stalls the core's writes to every settings page.
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	ask := func(id, api, base string) map[string]any {
		t.Helper()
		send(t, conn, map[string]any{"type": "test_connection", "request_id": id, "preset": yui.ID, "chat_api": api, "chat_base_url": base})
		return connectionTestAnswer(t, page, id)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	if r := ask("refused", "push", "http://"+closed); r["cause"] != "refused" || !strings.Contains(r["text"].(string), "Can't reach "+closed+": connection refused") {
		t.Fatalf("refused: %v", r)
	}
	web := httptest.NewServer(http.NotFoundHandler())
	defer web.Close()
	r := ask("404", "push", web.URL)
	if r["cause"] != "not_push" || r["settings"] != true || !strings.Contains(r["text"].(string), "HTTP 404 on upgrade") {
		t.Fatalf("404: %v", r)
	}
}

// The pet's plate keeps its reconnect countdown and says why in plain
// words: a backend whose port refuses.
func TestPlateNamesTheCauseAndKeepsTheCountdown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	s := settings.Defaults()
	s.Presets[0].ChatBaseURL = "http://" + closed
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, settings.FileName), data, 0o600); err != nil {
		t.Fatal(err)
	}
	st := startCore(t, Options{ConfigDir: dir})
	page := readPage(st.dial(t, view.RolePet, s.Presets[0].ID))
	page.wait(t, "a reconnect countdown naming the refused port", func(_ []map[string]any, l map[string]map[string]any) bool {
		p := l["plate"]
		return p != nil && strings.HasPrefix(fmt.Sprint(p["text"]), "reconnecting in ") &&
			strings.Contains(fmt.Sprint(p["cause"]), "Can't reach "+closed+": connection refused")
	})
}

// A Standard Agents character on the demo's thread runtime: Test connection
// checks the key and lists the agents; saved with an agent and no thread,
// the character makes its thread and the preset keeps its id; a deleted
// thread shows on the plate and in settings_status, nothing reconnects to
// it, and a reset starts a new thread.
func TestStandardAgentsThroughTheCore(t *testing.T) {
	st := startCore(t, Options{Demo: true, DemoAddr: "127.0.0.1:0"})
	yui := st.c.Settings().Get().Presets[0]
	page := readPage(st.dial(t, view.RoleSettings, ""))
	conn := st.dial(t, view.RoleSettings, "")
	send(t, conn, map[string]any{"type": "test_connection", "request_id": "t1", "preset": yui.ID, "chat_api": "standard_agents",
		"chat_base_url": settings.DemoBaseURL, "agent_id": "nobody"})
	var got map[string]any
	page.wait(t, "the test's answer", func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, x := range all {
			if x["type"] == view.TypeConnectionTest && x["request_id"] == "t1" {
				got = x
				return true
			}
		}
		return false
	})
	agents, _ := got["agents"].([]any)
	if got["kind"] != "failed" || len(agents) != 1 || agents[0].(map[string]any)["id"] != "yui-demo" {
		t.Fatalf("an unknown agent: %v", got)
	}

	f := presetForm(yui).PresetFields
	f.ChatAPI, f.AgentID = "standard_agents", "yui-demo"
	send(t, conn, map[string]any{"type": "save_settings", "request_id": "s1", "active_preset": yui.ID, "presets": []any{f}})
	waitFor(t, "the thread saved in the preset", func() bool {
		p, _ := st.c.presetNow(yui.ID)
		return p.ChatAPI == "standard_agents" && p.ThreadID != ""
	})
	p, _ := st.c.presetNow(yui.ID)
	first := p.ThreadID
	page.wait(t, "the form shows the thread", func(_ []map[string]any, l map[string]map[string]any) bool {
		b, _ := json.Marshal(l[view.TypeSettingsState])
		return strings.Contains(string(b), `"thread_id":"`+first+`"`)
	})
	pet := readPage(st.dial(t, view.RolePet, yui.ID))
	pet.wait(t, "ready", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePlate] != nil && l[view.TypePlate]["kind"] == ""
	})

	del, _ := http.NewRequest(http.MethodDelete, st.c.demoURL()+"/api/threads/"+first, nil)
	del.Header.Set("Authorization", "Bearer "+yui.Key)
	if resp, err := http.DefaultClient.Do(del); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("delete the thread: %v %v", resp, err)
	}
	pet.wait(t, "the deleted thread on the plate", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePlate]["text"] == "thread deleted" && l[view.TypePlate]["action"] == "reset"
	})
	page.wait(t, "the deleted thread in the settings status", func(_ []map[string]any, l map[string]map[string]any) bool {
		b, _ := json.Marshal(l[view.TypeSettingsStatus])
		return strings.Contains(string(b), `"problem":"thread_deleted"`)
	})
	send(t, conn, map[string]any{"type": "preset_action", "preset": yui.ID, "action": "reset"})
	waitFor(t, "a new thread saved", func() bool {
		p, _ := st.c.presetNow(yui.ID)
		return p.ThreadID != "" && p.ThreadID != first
	})
	pet.wait(t, "ready on the new thread", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePlate]["kind"] == ""
	})
}

// connectionTestAnswer waits for the settings page's connection_test
// answer to request id.
func connectionTestAnswer(t *testing.T, page *pageReader, id string) map[string]any {
	t.Helper()
	return page.answer(t, view.TypeConnectionTest, id)
}
