package console

import (
	"testing"

	"yui/app/session"
)

// A reasoning append prints only what was added.
func TestReasoningAppendPrintsTheDelta(t *testing.T) {
	m := jsonEvent(session.Reasoning{TurnID: "1", Text: "whole text", Delta: " text", Append: true, Streaming: true})
	if m["text"] != " text" || m["append"] != true || m["cut"] != false || m["streaming"] != true {
		t.Fatalf("append event %v", m)
	}
	m = jsonEvent(session.Reasoning{TurnID: "1", Text: "newest", Cut: true})
	if m["text"] != "newest" || m["append"] != false || m["cut"] != true {
		t.Fatalf("whole event %v", m)
	}
}
