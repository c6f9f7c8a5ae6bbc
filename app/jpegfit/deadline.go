package jpegfit

import "time"

// Deadline bounds a fit in time. Once it has passed, the search stops
// trying for a better fit: it keeps the best fit found so far, or, when
// none has fitted yet, falls back to the smallest size it makes (a
// 64-pixel long side), which costs a few encodes of a tiny image. An
// encode already running finishes; the bound is checked between encodes.
//
// The zero Deadline never passes.
type Deadline struct {
	// At is when the search should stop; zero means no bound.
	At time.Time
	// Now reads the clock; nil means time.Now. Tests pass a clock of
	// their own to prove the bound without depending on machine speed.
	Now func() time.Time
}

// passed reports whether the deadline is set and has passed.
func (d Deadline) passed() bool {
	if d.At.IsZero() {
		return false
	}
	now := d.Now
	if now == nil {
		now = time.Now
	}
	return !now().Before(d.At)
}
