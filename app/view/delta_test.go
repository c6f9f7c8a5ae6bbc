package view

import (
	"testing"
)

// A connected page gets each change once; a page that connects later gets
// the whole message, not the changes.
func TestPublishDeltaSendsChangesLiveAndTheWholeOnConnect(t *testing.T) {
	connected := make(chan Peer, 2)
	s := startServer(t, Config{OnConnect: func(p Peer) { connected <- p }})
	tok := grant(t, s, RolePet, "p")
	live, _, err := dial(t, s, tok, RolePet, "p")
	if err != nil {
		t.Fatal(err)
	}
	defer live.CloseNow()
	<-connected
	s.Publish("p", TypeReasoning, MustEncode(TypeReasoning, Reasoning{TurnID: "1", Text: "ab", Streaming: true}))
	s.PublishDelta("p", TypeReasoning,
		MustEncode(TypeReasoning, Reasoning{TurnID: "1", Text: "abc", Streaming: true}),
		MustEncode(TypeReasoning, Reasoning{TurnID: "1", Text: "c", Streaming: true, Append: true}))
	if m := readMsg(t, live); m["text"] != "ab" || m["append"] != nil {
		t.Fatalf("first %v", m)
	}
	if m := readMsg(t, live); m["text"] != "c" || m["append"] != true {
		t.Fatalf("live change %v", m)
	}
	late, _, err := dial(t, s, tok, RolePet, "p")
	if err != nil {
		t.Fatal(err)
	}
	defer late.CloseNow()
	if m := readMsg(t, late); m["text"] != "abc" || m["append"] != nil {
		t.Fatalf("replay to a late page %v", m)
	}
}
