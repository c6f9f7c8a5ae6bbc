package listen

import (
	"sync"
	"time"
)

// heardSlack is how long after the end of the sound queued so far she
// still counts as speaking: the voice queues about one 100 ms chunk ahead
// and says so as it queues, so the next chunk's news can come that late.
const heardSlack = 150 * time.Millisecond

// Heard tracks when the characters are heard, from the lip-sync levels
// the voices send (each says from when, and for how long, sound is heard,
// and whether it is a sentence's first). The listener asks it whether she
// speaks now and since when her current sentence plays: the barge-in
// guard window and the duck. It is safe for concurrent use; the zero
// value is ready.
type Heard struct {
	mu     sync.Mutex
	starts []time.Time // sentence starts not yet passed, and the last one passed
	until  time.Time   // the end of the sound queued so far
}

// Sound records that sound is heard from at for d, first when it is a
// sentence's first; d = 0 says the sound stopped at at (stop, barge-in,
// mute).
func (h *Heard) Sound(at time.Time, d time.Duration, first bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if d <= 0 {
		h.until = at
		h.starts = nil
		return
	}
	if first || len(h.starts) == 0 || at.Sub(h.until) > heardSlack {
		h.starts = append(h.starts, at)
	}
	if end := at.Add(d); end.After(h.until) {
		h.until = end
	}
}

// Speaking reports whether she is heard at now, and since when the
// sentence playing has been heard.
func (h *Heard) Speaking(now time.Time) (bool, time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	// Drop the starts before the latest one that has passed.
	i := 0
	for i+1 < len(h.starts) && !now.Before(h.starts[i+1]) {
		i++
	}
	h.starts = h.starts[i:]
	if len(h.starts) == 0 || now.Before(h.starts[0]) || !now.Before(h.until.Add(heardSlack)) {
		return false, time.Time{}
	}
	return true, h.starts[0]
}
