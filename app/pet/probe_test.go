package pet

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"yui/transport/threads/threadserver"
)

// ProbeThreads checks the key, lists the agents, finds the chosen one and
// reads a pasted thread; the key goes only to the runtime typed.
func TestProbeThreads(t *testing.T) {
	srv := threadserver.New(threadserver.Config{Key: "k1", Agents: []threadserver.AgentInfo{
		{ID: "helper", Title: "Helper"}, {ID: "pkg/writer", Name: "writer"}}})
	hs := httptest.NewServer(srv)
	defer func() { hs.CloseClientConnections(); srv.Close(); hs.Close() }()
	thread := srv.CreateThread("helper")
	gone := srv.CreateThread("helper")
	srv.Delete(gone)
	ctx := context.Background()
	for _, c := range []struct {
		name, base, key, agent, thread string
		kind, text                     string
	}{
		{"no agent yet", hs.URL, "k1", "", "", "ok", "Connected as yui: 2 agents listed; pick one."},
		{"agent found", hs.URL + "/some/path", "k1", "helper", "", "ok", "Connected as yui; agent “Helper” found. A new thread is made when you save."},
		{"unknown agent", hs.URL, "k1", "nobody", "", "failed", "Connected as yui, but the agent “nobody” is not on this runtime; pick one of the 2 listed."},
		{"thread there", hs.URL, "k1", "helper", thread, "ok", "Connected as yui; agent “Helper” found. The thread is there."},
		{"thread of another agent", hs.URL, "k1", "pkg/writer", thread, "ok", "Connected as yui; agent “writer” found. The thread belongs to agent “helper”."},
		{"thread deleted", hs.URL, "k1", "helper", gone, "failed", "Connected as yui, but the thread " + gone + " was deleted (or never existed). Start a new thread."},
		{"not a thread id", hs.URL, "k1", "helper", "../x", "failed", "Connected as yui, but “../x” is not a thread id (letters, digits, - and _)."},
		{"wrong key", hs.URL, "nope", "helper", "", "refused", "The key was refused (HTTP 401). Check the key."},
		{"no url", "", "k1", "", "", "unreachable", "No base URL: type the runtime's address first."},
		{"nobody there", "http://127.0.0.1:1", "k1", "", "", "unreachable", "Cannot reach 127.0.0.1:1: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ProbeThreads(ctx, nil, c.base, c.key, c.agent, c.thread)
			if r.Kind != c.kind || !strings.HasPrefix(r.Text, c.text) {
				t.Errorf("got %s %q, want %s %q", r.Kind, r.Text, c.kind, c.text)
			}
			if r.Kind == "ok" && len(r.Agents) != 2 {
				t.Errorf("agents %v", r.Agents)
			}
		})
	}
}

// A server that answers with a web page (a router, a web UI, the wrong
// path) gets "answered, but not with a model list", not a JSON error.
func TestProbeOfAWebPageSaysTheServerAnsweredWithSomethingElse(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!DOCTYPE html>\n<html><head><title>llama.cpp</title></head><body></body></html>"))
	}))
	defer hs.Close()
	where := strings.TrimPrefix(hs.URL, "http://")
	for _, api := range []string{ChatCompletions, Responses} {
		r := Probe(context.Background(), nil, api, hs.URL, "k", "yui-00000000")
		if r.Kind != "failed" || r.Cause != "not_api" || !r.Settings ||
			!strings.HasPrefix(r.Text, "The server at "+where+" answered, but not with a model list (it sent a web page) — is the API or the URL wrong?") {
			t.Errorf("%s: %+v", api, r)
		}
		if strings.Contains(r.Text, "invalid character") {
			t.Errorf("%s: JSON's words: %q", api, r.Text)
		}
	}
	r := ProbeThreads(context.Background(), nil, hs.URL, "k", "", "")
	if r.Kind != "failed" || r.Cause != "not_api" || !strings.Contains(r.Text, "answered, but not with what a Standard Agents runtime sends (it sent a web page)") {
		t.Errorf("threads: %+v", r)
	}
}
