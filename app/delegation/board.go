package delegation

import "time"

// Board is the delegations state of one preset: the live list and the
// history, updated in the order the spec requires.
type Board struct {
	live Live
	hist *History
	now  func() time.Time
}

// NewBoard composes a live list with hist; now is the clock.
func NewBoard(hist *History, now func() time.Time) *Board {
	return &Board{hist: hist, now: now}
}

// Apply takes a delegations frame: the history merges it first, then it
// replaces the live list. The history is saved at once, or with the
// frames of the next SaveDelay when one was just saved
// (History.MergeSoon); a save error is returned after the live list has
// been replaced anyway. Flush saves a waiting change now.
func (b *Board) Apply(items []Item) error {
	now := b.now()
	err := b.hist.MergeSoon(items, now)
	b.live.Replace(items, now)
	return err
}

// Flush saves the history's waiting change (on close).
func (b *Board) Flush() error { return b.hist.Flush() }

// Close saves what waits and closes the history's database (the session
// ends).
func (b *Board) Close() error { return b.hist.Close() }

// Reset empties the live list; the history is untouched.
func (b *Board) Reset() { b.live.Reset() }

// Live returns the whole live list.
func (b *Board) Live() []Item { return b.live.Items() }

// Visible returns what the chip shows now.
func (b *Board) Visible() []Item { return b.live.Visible(b.now()) }

// NextExpiry returns when Visible next changes on its own.
func (b *Board) NextExpiry() (time.Time, bool) { return b.live.NextExpiry(b.now()) }

// History returns the history, newest first.
func (b *Board) History() []Item { return b.hist.Items() }
