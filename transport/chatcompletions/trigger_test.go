package chatcompletions_test

import (
	"context"
	"net/http"
	"testing"

	"yui/transport"
	"yui/transport/chatcompletions"
)

// A turn the client started (an empty utterance: a proactive turn, a
// reminder) still ends on a user message, "(no message)", after the
// client_context system message that says why; the next request's
// transcript carries the same line.
func TestClientStartedTurnEndsOnAUserMessage(t *testing.T) {
	e := newEnv(t, func(n int, w http.ResponseWriter, r *http.Request) {
		sse(w, content("Good morning!"), finish("stop"), "[DONE]")
	}, chatcompletions.Config{})
	cc := "<client_context>\ntime: now\ntrigger: proactive \"good morning\"\n</client_context>"
	if err := e.tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", ClientContext: cc}); err != nil {
		t.Fatal(err)
	}
	e.rec.WaitEnd(t, "1")
	e.turn("2", "hi")
	e.rec.WaitEnd(t, "2")
	type msg struct{ role, content string }
	read := func(n int) []msg {
		var out []msg
		for _, m := range e.be.Body(t, n)["messages"].([]any) {
			mm := m.(map[string]any)
			c, _ := mm["content"].(string)
			out = append(out, msg{mm["role"].(string), c})
		}
		return out
	}
	first, second := read(0), read(1)
	if len(first) != 3 || first[1].role != "system" || first[1].content != "client_context:\ntime: now\ntrigger: proactive \"good morning\"" ||
		first[2] != (msg{"user", chatcompletions.NoMessage}) {
		t.Fatalf("first request %q", first)
	}
	if len(second) != 5 || second[1] != (msg{"user", chatcompletions.NoMessage}) || second[2] != (msg{"assistant", "Good morning!"}) ||
		second[4] != (msg{"user", "hi"}) {
		t.Fatalf("second request %q", second)
	}
}
