package core

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"yui/app/core/settingsui"
	"yui/app/history"
	"yui/app/view"
)

// chatServer is an OpenAI-compatible backend that records each request's
// messages and answers "Reply N." (N counts requests from 0).
type chatServer struct {
	mu   sync.Mutex
	reqs [][]map[string]any
}

func (s *chatServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	var body struct {
		Messages []map[string]any `json:"messages"`
	}
	json.NewDecoder(r.Body).Decode(&body)
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, body.Messages)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Reply %d.\"}}]}\n\n", n)
	fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// texts are request n's user and assistant messages as "role:text".
func (s *chatServer) texts(n int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, m := range s.reqs[n] {
		role, _ := m["role"].(string)
		if role != "user" && role != "assistant" {
			continue
		}
		c, _ := m["content"].(string)
		if parts, ok := m["content"].([]any); ok {
			for _, p := range parts {
				if pm, _ := p.(map[string]any); pm["type"] == "text" {
					c, _ = pm["text"].(string)
				}
			}
		}
		out = append(out, role+":"+c)
	}
	return out
}

// The transcript the message window shows is the one store Chat
// Completions sends: what a turn recorded goes with the next request, the
// file holds it, and New conversation from the message window empties
// both the window and what is sent.
func TestMessageWindowTranscriptIsWhatChatCompletionsSends(t *testing.T) {
	t.Parallel() // real-time speech on its own core and demo backend
	be := &chatServer{}
	srv := httptest.NewServer(be)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	st := startCore(t, Options{Demo: true, DemoAddr: "127.0.0.1:0", ConfigDir: dir})
	yui := st.c.Settings().Get().Presets[0]
	f := settingsui.Form(yui).PresetFields
	f.ChatAPI = "chat_completions"
	f.ChatBaseURL = srv.URL + "/v1"
	f.Model = "m"
	before := st.c.pet(yui.ID)
	send(t, st.dial(t, view.RoleSettings, ""), map[string]any{"type": "save_settings", "request_id": "s1", "active_preset": yui.ID, "presets": []any{f}})
	waitFor(t, "the saved chat_api and its new pet", func() bool {
		p, _ := st.c.presetNow(yui.ID)
		return p.ChatAPI == "chat_completions" && st.c.pet(yui.ID) != nil && st.c.pet(yui.ID) != before
	})
	pet := readPage(st.dial(t, view.RolePet, yui.ID))
	pet.wait(t, "ready", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypePlate] != nil && l[view.TypePlate]["kind"] == ""
	})
	conn := st.dial(t, view.RoleMessage, yui.ID)
	msgs := readPage(conn)
	msgs.wait(t, "the (empty) transcript and the mirrored preset", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypeTranscript] != nil && l[view.TypePreset] != nil
	})
	doneReplies := func(all []map[string]any) []string {
		var out []string
		for _, m := range all {
			if m["type"] == view.TypeTranscriptEntry && m["kind"] == "reply" && m["state"] == "done" {
				out = append(out, m["text"].(string))
			}
		}
		return out
	}
	turn := func(text string, n int) {
		t.Helper()
		send(t, conn, map[string]any{"type": "send_text", "text": text})
		msgs.wait(t, fmt.Sprintf("reply %d done", n), func(all []map[string]any, _ map[string]map[string]any) bool {
			return len(doneReplies(all)) >= n
		})
	}
	turn("first", 1)
	turn("second", 2)
	if got := doneReplies(msgs.messages()); got[0] != "Reply 0." || got[1] != "Reply 1." {
		t.Fatalf("replies shown %q", got)
	}
	got := be.texts(1)
	want := []string{"user:first", "assistant:Reply 0.", "user:second"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("second request's messages %q, want %q", got, want)
	}
	// Her history holds what is shown and what is sent (app/history; the
	// exchange is committed before the next request); the wire's own file
	// holds no messages.
	hdb, err := history.Open(dir, yui.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, _, err := hdb.Page(0, 100)
	hdb.Close()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rows)
	for _, s := range []string{`"text":"first"`, `"sent":"first"`, `"text":"Reply 0."`, `"sent":"Reply 1."`} {
		if !strings.Contains(string(b), s) {
			t.Fatalf("transcript file lacks %s: %s", s, b)
		}
	}
	if old, err := os.ReadFile(filepath.Join(dir, "conversation-"+yui.ID+"-chat_completions.json")); err == nil && strings.Contains(string(old), "first") {
		t.Fatalf("the wire's file keeps messages too: %s", old)
	}
	// New conversation from the message window: empty, and nothing earlier goes.
	mark := len(msgs.messages())
	send(t, conn, map[string]any{"type": "reset"})
	msgs.wait(t, "an empty transcript", func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, m := range all[mark:] {
			if m["type"] == view.TypeTranscript {
				es, _ := m["entries"].([]any)
				return len(es) == 0
			}
		}
		return false
	})
	turn("third", 3)
	if got := be.texts(2); strings.Join(got, "|") != "user:third" {
		t.Fatalf("after New conversation the request carried %q", got)
	}
	// The pet page saw the same turns (one session): its composer unlocked.
	pet.wait(t, "the pet's composer unlocked", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypeComposer] != nil && l[view.TypeComposer]["locked"] == false
	})
}
