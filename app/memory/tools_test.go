package memory_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"yui/app/memory"
	"yui/transport/chatcompletions"
)

// The remember and forget tools, and a failed summary that loses no turn.

// TestRememberForgetTools: the model keeps and drops facts through the
// client tools; they go with her requests and never with another
// character's.
func TestRememberForgetTools(t *testing.T) {
	srv := newCC(t)
	srv.summary = func(string) string { return "x" }
	srv.reply = func(n int, msgs []msg) (string, string) {
		switch n {
		case 0:
			return "", toolCall("c1", "remember", `{"fact":"The user's name is Ada"}`)
		case 2:
			return "", toolCall("c2", "forget", `{"fact":"name is Ada"}`)
		}
		return "Done.", ""
	}
	mem, _ := memory.Open(filepath.Join(t.TempDir(), "a.json"), nil, nil)
	c := newCharacter(t, srv, mem, 8192)

	other := newCC(t)
	other.summary = func(string) string { return "x" }
	other.reply = func(int, []msg) (string, string) { return "Hi.", "" }
	otherMem, _ := memory.Open(filepath.Join(t.TempDir(), "b.json"), nil, nil)
	o := newCharacter(t, other, otherMem, 8192)

	c.say("t1", "I am Ada.")
	if got := mem.State().Facts; len(got) != 1 || got[0] != "The user's name is Ada" {
		t.Fatalf("facts %q", got)
	}
	srv.mu.Lock()
	afterCall := srv.turns[1]
	tools := srv.tools[0]
	srv.mu.Unlock()
	if !strings.Contains(afterCall[0].text(), "- The user's name is Ada") {
		t.Fatalf("the round after remember lacks the fact: %q", afterCall[0].text())
	}
	if !strings.Contains(strings.Join(tools, ","), "remember,forget") {
		t.Fatalf("tools %q", tools)
	}
	o.say("o1", "hello")
	if s := joined(other.lastTurn()); strings.Contains(s, "Ada") {
		t.Fatalf("another character's backend got her facts: %s", s)
	}
	c.say("t2", "Forget my name.")
	if got := mem.State().Facts; len(got) != 0 {
		t.Fatalf("facts after forget %q", got)
	}
}

// TestSummaryFailureLosesNoTurn: a summary request the server refuses
// leaves the memory as it was and the turn goes on with its reply; the
// next turn tries again.
func TestSummaryFailureLosesNoTurn(t *testing.T) {
	srv := newCC(t)
	var mu sync.Mutex
	fail := true
	srv.summary = func(string) string { return "Folded." }
	srv.reply = func(n int, _ []msg) (string, string) { return fmt.Sprintf("Reply %d. %s", n, pad), "" }
	inner := srv.srv.Config.Handler
	srv.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		f := fail
		mu.Unlock()
		if f {
			var b struct {
				Messages []msg `json:"messages"`
			}
			raw, _ := io.ReadAll(r.Body)
			_ = json.Unmarshal(raw, &b)
			if len(b.Messages) > 0 && b.Messages[0].text() == chatcompletions.SummaryInstructions {
				http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(raw))
		}
		inner.ServeHTTP(w, r)
	})
	mem, _ := memory.Open(filepath.Join(t.TempDir(), "m.json"), nil, nil)
	c := newCharacter(t, srv, mem, 2000)
	for i := range 4 {
		c.say(fmt.Sprintf("t%d", i), fmt.Sprintf("Message %d. %s", i, pad))
	}
	srv.mu.Lock()
	turns := len(srv.turns)
	srv.mu.Unlock()
	if turns != 4 || mem.State().Summary != "" {
		t.Fatalf("%d turn requests, summary %q", turns, mem.State().Summary)
	}
	mu.Lock()
	fail = false
	mu.Unlock()
	c.say("t4", "Message 4. "+pad)
	if got := mem.State().Summary; got != "Folded." {
		t.Fatalf("the next turn did not fold in: %q", got)
	}
	if !strings.Contains(srv.lastTurn()[0].text(), "Folded.") {
		t.Fatal("the summary was not sent")
	}
}
