package console_test

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"yui/transport/threads"
	"yui/transport/threads/threadserver"
)

// `yui console --chat-api standard_agents --url … --key … --agent …`
// against a thread runtime on loopback: the console makes a thread for
// the agent, a typed line gets its reply sentence by sentence, /reset
// makes a new thread (the old one left as it is) and the next line goes
// there.
func TestConsoleOverStandardAgents(t *testing.T) {
	srv, c := threadsConsole(t, func(r *threadserver.Reply) {
		r.Say(fmt.Sprintf("Message %d here. ", r.Prior()+1), "Anything else?")
	})
	// Which thread it made is a note, not an error line.
	made := c.waitEvent("note", nil)["text"].(string)
	if th := srv.Threads(); len(th) != 1 || made != "thread "+th[0]+" (pass --thread "+th[0]+" to come back to it)" {
		t.Fatalf("note %q, threads %v", made, th)
	}
	fmt.Fprintln(c.stdin, "first")
	c.waitEvent("speech_start", map[string]any{"text": "Message 1 here."})
	c.waitEvent("speech_start", map[string]any{"text": "Anything else?"})
	fmt.Fprintln(c.stdin, "second")
	c.waitEvent("speech_start", map[string]any{"text": "Message 2 here."})
	first := srv.Threads()
	fmt.Fprintln(c.stdin, "/reset")
	c.waitEvent("socket", map[string]any{"state": "ready"})
	fmt.Fprintln(c.stdin, "third")
	c.waitEvent("speech_start", map[string]any{"text": "Message 1 here."})
	for _, m := range c.finish() {
		if m["event"] == "error_line" {
			t.Errorf("an error line where nothing went wrong: %v", m)
		}
	}
	all := srv.Threads()
	if len(first) != 1 || len(all) != 2 || !slices.Contains(all, first[0]) {
		t.Fatalf("threads before the reset %v, after %v: want the old one kept and one more", first, all)
	}
	users := srv.Contents(first[0], "user")
	if len(users) != 2 || !strings.HasSuffix(users[0], "\n\nfirst") || !strings.HasPrefix(users[0], "<client_context>\n") {
		t.Fatalf("the first thread's messages %q", users)
	}
}

// A turn to a thread deleted on the runtime (which closes the socket only
// ≈ 10 s later) says so at once: the turn's error line is the plain one,
// the console notes the thread was deleted, and nothing says "went wrong".
func TestConsoleTurnToADeletedThread(t *testing.T) {
	srv, c := threadsConsole(t, func(r *threadserver.Reply) { r.Say("Hi.") })
	th := srv.Threads()
	if len(th) != 1 || !srv.Delete(th[0]) {
		t.Fatalf("threads %v", th)
	}
	fmt.Fprintln(c.stdin, "hello?")
	id := c.waitEvent("turn_sent", nil)["turn_id"].(string)
	c.waitEvent("error_line", map[string]any{"turn_id": id, "text": threads.DeletedLine})
	c.waitEvent("note", map[string]any{"text": "the thread " + th[0] + " was deleted; /reset makes a new one"})
	c.waitEvent("socket", map[string]any{"state": "failed"})
	c.waitEvent("turn_end", map[string]any{"turn_id": id})
	for _, m := range c.finish() {
		if m["event"] == "failure_line" && strings.Contains(m["text"].(string), "went wrong") {
			t.Errorf("the generic failure line: %v", m)
		}
	}
}

// threadsConsole runs `yui console --chat-api standard_agents` against a
// runtime of 0.41.12's behaviour on loopback with one agent, helper,
// answering with agent; it returns once the console is ready.
func threadsConsole(t *testing.T, agent threadserver.Agent) (*threadserver.Server, *consoleRun) {
	t.Helper()
	srv := threadserver.New(threadserver.Config{Key: "agtbldr_flag", Behaviour: threadserver.Legacy(),
		Agents: []threadserver.AgentInfo{{ID: "helper", Title: "Helper"}}, Agent: agent})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		srv.Close()
		hs.Close()
	})
	dir := t.TempDir()
	c := startConsole(t, "--json", "--speech-rate", "0", "--config-dir", dir, "--log-dir", dir,
		"--chat-api", "standard_agents", "--url", hs.URL, "--key", "agtbldr_flag", "--agent", "helper")
	c.waitEvent("socket", map[string]any{"state": "ready"})
	return srv, c
}
