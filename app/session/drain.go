package session

import (
	"context"
	"fmt"
)

// Drain returns once no client turn is running and nothing is playing or
// queued (the console's end of input), or when ctx ends.
func (s *Session) Drain(ctx context.Context) error {
	ch := make(chan struct{})
	if !s.mb.post(func() { s.st.drains = append(s.st.drains, ch) }) {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("session: drain: %w", ctx.Err())
	}
}

// checkDrains releases Drain callers when the session is quiet; it runs
// on the actor after every item.
func (s *Session) checkDrains() {
	if len(s.st.drains) == 0 {
		return
	}
	for _, t := range s.st.turns {
		if t.running {
			return
		}
	}
	if !s.player.Idle() {
		return
	}
	for _, ch := range s.st.drains {
		close(ch)
	}
	s.st.drains = nil
}
