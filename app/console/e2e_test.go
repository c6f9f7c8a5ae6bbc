package console_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/app/console"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// These tests run console.Main in-process against a real pushserver over
// loopback: real sockets, real time, no sleeps (each wait is for an event,
// bounded by hangLimit).

// hangLimit bounds every wait for an event here. Each wait ends when its
// event arrives, so the limit only stops a hung test (docs/testing.md).
const hangLimit = 60 * time.Second

const e2eKey = "e2e-key"

type backend struct {
	srv   *pushserver.Server
	http  *httptest.Server
	turns chan push.Turn
	stops chan []string
	chats chan string
}

func newBackend(t *testing.T) *backend {
	t.Helper()
	b := &backend{turns: make(chan push.Turn, 16), stops: make(chan []string, 16), chats: make(chan string, 16)}
	b.srv = pushserver.New(pushserver.Config{Key: e2eKey, Source: "e2e", Hooks: pushserver.Hooks{
		Connected: func(chatID string, _ push.Hello) { b.chats <- chatID },
		Turn:      func(_ string, tu push.Turn) { b.turns <- tu },
		Stop:      func(_ string, ids []string) { b.stops <- ids },
	}})
	b.http = httptest.NewServer(b.srv)
	t.Cleanup(func() { b.srv.Close(); b.http.Close() })
	return b
}

type consoleRun struct {
	t       *testing.T
	stdin   *io.PipeWriter
	events  chan map[string]any
	exit    chan int
	seen    []map[string]any // every event read, in order
	pending []map[string]any // read but not yet matched by waitFor
	stderr  strings.Builder
}

func startConsole(t *testing.T, args ...string) *consoleRun {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &consoleRun{t: t, stdin: inW, events: make(chan map[string]any, 1024), exit: make(chan int, 1)}
	if bin := os.Getenv("YUI_CONSOLE_BIN"); bin != "" {
		// The same test against the real binary (make e2e sets this).
		cmd := exec.Command(bin, append([]string{"console"}, args...)...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, &c.stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			err := cmd.Wait()
			outW.Close()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				code = -1
			}
			c.exit <- code
		}()
	} else {
		go func() {
			code := console.Main(args, inR, outW, &c.stderr)
			outW.Close()
			c.exit <- code
		}()
	}
	go func() {
		defer close(c.events)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("stdout line is not JSON: %q", sc.Text())
				continue
			}
			c.events <- m
		}
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

// waitFor returns the first unmatched event matching pred: one already
// read, else the next one to arrive.
func (c *consoleRun) waitFor(what string, pred func(m map[string]any) bool) map[string]any {
	c.t.Helper()
	for i, m := range c.pending {
		if pred(m) {
			c.pending = append(c.pending[:i:i], c.pending[i+1:]...)
			return m
		}
	}
	timeout := time.After(hangLimit)
	for {
		select {
		case m, ok := <-c.events:
			if !ok {
				c.t.Fatalf("stdout ended waiting for %s; seen %v; stderr %s", what, c.seen, c.stderr.String())
			}
			c.seen = append(c.seen, m)
			if pred(m) {
				return m
			}
			c.pending = append(c.pending, m)
		case <-timeout:
			c.t.Fatalf("timed out waiting for %s; seen %v", what, c.seen)
		}
	}
}

func (c *consoleRun) waitEvent(kind string, fields map[string]any) map[string]any {
	c.t.Helper()
	return c.waitFor(kind, func(m map[string]any) bool {
		if m["event"] != kind {
			return false
		}
		for k, v := range fields {
			if m[k] != v {
				return false
			}
		}
		return true
	})
}

func (c *consoleRun) line(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.stdin, s+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// finish closes stdin and checks the exit code.
func (c *consoleRun) finish() []map[string]any {
	c.t.Helper()
	c.stdin.Close()
	for m := range c.events {
		c.seen = append(c.seen, m)
	}
	select {
	case code := <-c.exit:
		if code != 0 {
			c.t.Fatalf("exit %d, stderr %s", code, c.stderr.String())
		}
	case <-time.After(hangLimit):
		c.t.Fatal("console did not exit after end of input")
	}
	return c.seen
}

func recvTurn(t *testing.T, b *backend) push.Turn {
	t.Helper()
	select {
	case tu := <-b.turns:
		return tu
	case <-time.After(hangLimit):
		t.Fatal("backend got no turn")
	}
	return push.Turn{}
}

func TestConsoleEndToEnd(t *testing.T) {
	dir, logs := t.TempDir(), t.TempDir()
	b := newBackend(t)
	args := []string{"--json", "--config-dir", dir, "--log-dir", logs, "--url", b.http.URL, "--key", e2eKey, "--speech-rate", "0"}
	c := startConsole(t, args...)
	c.waitEvent("socket", map[string]any{"state": "ready"})
	chatID := chatOf(t, b)

	// A delegation the backend reports; it must survive a restart.
	must(t, b.srv.SetDelegations(chatID, []push.Delegation{{ID: "d-1", Title: "Sort the test list", StartedAt: time.Now().UnixMilli(), State: "running"}}))
	c.waitFor("delegations with d-1", func(m map[string]any) bool {
		return m["event"] == "delegations" && strings.Contains(mustJSON(m["items"]), "d-1")
	})

	// 1. A stopped turn's late render is dropped.
	c.line("tell me a long story")
	sent := c.waitEvent("turn_sent", map[string]any{"text": "tell me a long story"})
	id1 := sent["turn_id"].(string)
	tu := recvTurn(t, b)
	if tu.TurnID != id1 || !strings.Contains(tu.ClientContext, "trigger: user message") {
		t.Fatalf("backend got %+v", tu)
	}
	c.waitEvent("composer", map[string]any{"locked": true})
	c.line("/stop")
	select {
	case ids := <-b.stops:
		if len(ids) != 1 || ids[0] != id1 {
			t.Fatalf("stop named %v, want [%s]", ids, id1)
		}
	case <-time.After(hangLimit):
		t.Fatal("no stop frame")
	}
	must(t, b.srv.SendRender(chatID, push.Render{TurnID: id1, Source: "e2e", Segments: []push.Segment{{Speech: "Once upon a time."}}}))
	must(t, b.srv.SendTurnEnd(chatID, id1, nil))
	c.waitEvent("turn_end", map[string]any{"turn_id": id1})

	// 2. A backend-started turn plays. Its render went out after the
	// stopped turn's: once its speech_start is here, a speech_start of the
	// stopped turn would have arrived too.
	must(t, b.srv.SendRender(chatID, push.Render{TurnID: "hermes-7", Source: "e2e",
		Segments: []push.Segment{{Cues: []push.Cue{{EmotionID: "happy"}}, Speech: "The sort finished."}}}))
	must(t, b.srv.SendTurnEnd(chatID, "hermes-7", nil))
	c.waitEvent("cue", map[string]any{"turn_id": "hermes-7", "emotion_id": "happy"})
	c.waitEvent("speech_start", map[string]any{"turn_id": "hermes-7", "text": "The sort finished."})
	c.waitEvent("turn_end", map[string]any{"turn_id": "hermes-7"})
	for _, m := range append(c.seen, c.pending...) {
		if m["event"] == "speech_start" && m["turn_id"] == id1 {
			t.Fatalf("the stopped turn's render played: %v", m)
		}
	}
	if !turnLogHas(t, logs, func(m map[string]any) bool {
		return m["event"] == "push.render" && m["turn_id"] == id1 && m["dropped"] == "cut_turn"
	}) {
		t.Fatalf("no push.render dropped:\"cut_turn\" line for %s in the turn log", id1)
	}

	// 3. An error frame: failure line, and the message in the composer's error line.
	c.line("break please")
	id2 := c.waitEvent("turn_sent", map[string]any{"text": "break please"})["turn_id"].(string)
	recvTurn(t, b)
	must(t, b.srv.SendError(chatID, id2, "Provider returned 429:\nrate limit reached"))
	must(t, b.srv.SendTurnEnd(chatID, id2, &push.Usage{InputTokens: 10, OutputTokens: 2, TotalTokens: 12}))
	c.waitEvent("failure_line", map[string]any{"turn_id": id2})
	c.waitEvent("error_line", map[string]any{"turn_id": id2, "where": "composer", "text": "Provider returned 429: rate limit reached"})

	// The delegation finishes; the history holds it.
	must(t, b.srv.SetDelegations(chatID, []push.Delegation{{ID: "d-1", Title: "Sort the test list", StartedAt: time.Now().UnixMilli() - 1000,
		State: "done", EndedAt: time.Now().UnixMilli(), Status: "ok", Summary: "Sorted 12 tests."}}))
	c.waitFor("delegations with d-1 done", func(m map[string]any) bool {
		return m["event"] == "delegations" && strings.Contains(mustJSON(m["history"]), "Sorted 12 tests.")
	})
	evs := c.finish()
	for _, m := range evs {
		if _, ok := m["ts"].(float64); !ok {
			t.Fatalf("event without ts: %v", m)
		}
	}

	// 4. Restart over the same config dir against a backend that knows
	// nothing: the history is still there.
	b2 := newBackend(t)
	args[len(args)-5] = b2.http.URL
	c2 := startConsole(t, args...)
	first := c2.waitEvent("delegations", nil)
	if h := mustJSON(first["history"]); !strings.Contains(h, "d-1") || !strings.Contains(h, "Sorted 12 tests.") {
		t.Fatalf("history after restart: %s", h)
	}
	c2.waitEvent("socket", map[string]any{"state": "ready"})
	if chatOf(t, b2) != chatID {
		t.Fatal("the restart used another chat_id")
	}
	c2.finish()
}

// turnLogHas reports whether a line of the turn log in dir matches pred.
func turnLogHas(t *testing.T, dir string, pred func(map[string]any) bool) bool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, console.TurnLogPrefix+"-*.log"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil && pred(m) {
				return true
			}
		}
	}
	return false
}

// chatOf returns the chat id of the client that connected.
func chatOf(t *testing.T, b *backend) string {
	t.Helper()
	select {
	case id := <-b.chats:
		return id
	case <-time.After(hangLimit):
		t.Fatal("no client connected")
	}
	return ""
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
