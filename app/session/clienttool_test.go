package session_test

import (
	"strings"
	"testing"
	"time"

	"yui/app/session"
	"yui/transport"
	"yui/transport/push"
)

// The browser's pill comes from the client's own run: running, then done
// (held PillHold, then cleared), with the tool phrase for her own turn;
// the backend's tool_status naming it changes nothing meanwhile.
func TestClientToolStateShowsTheBrowsersOwnRun(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{tools: []push.Tool{transport.ToolFunc{Name: "browser"}}})
		id := e.send("read the news")
		m := e.ev.mark()
		e.s.ClientToolState(id, "browser", "running")
		e.toolStatus(id, "done", "browser") // the backend's: ignored
		sleep(time.Second)
		got := pills(e.ev.since(m))
		if len(got) != 1 || !strings.HasPrefix(got[0], "browser:running:") {
			t.Fatalf("pill %v", got)
		}
		e.s.ClientToolState(id, "browser", "done")
		sleep(session.PillHold - time.Millisecond)
		if got := pills(e.ev.since(m)); len(got) != 2 || !strings.HasPrefix(got[1], "browser:done") {
			t.Fatalf("pill %v", got)
		}
		sleep(2 * time.Millisecond)
		if got := pills(e.ev.since(m)); len(got) != 3 || got[2] != "clear" {
			t.Fatalf("pill %v", got)
		}
	})
}
