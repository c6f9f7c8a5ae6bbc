package session

import (
	"slices"
	"testing"
)

// User actions run ahead of queued work, but actions that keep coming
// take turns with it rather than starving it.
func TestMailboxUserActionsFirstButNoStarvation(t *testing.T) {
	var order []string
	gate := make(chan struct{})
	done := make(chan struct{})
	m := newMailbox(func() {})
	defer m.close()
	started := make(chan struct{})
	m.post(func() { close(started); <-gate }) // holds the actor while the queues fill
	<-started
	for _, s := range []string{"f1", "f2", "f3"} {
		m.postFrame(func() { order = append(order, s) })
	}
	for _, s := range []string{"u1", "u2", "u3"} {
		m.postUrgent(func() { order = append(order, s) })
	}
	m.post(func() { close(done) })
	close(gate)
	<-done
	want := []string{"u1", "f1", "u2", "f2", "u3", "f3"}
	if !slices.Equal(order, want) {
		t.Fatalf("order %v, want %v", order, want)
	}
}
