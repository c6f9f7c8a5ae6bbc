package delegation

import (
	"slices"
	"sync"
	"time"
)

// Live is the latest delegations list.
type Live struct {
	mu    sync.Mutex
	items []Item
}

// Replace takes a frame's list, cleaned, in place of the current one.
func (l *Live) Replace(items []Item, now time.Time) {
	items = Clean(items)
	l.mu.Lock()
	defer l.mu.Unlock()
	prev := map[string]Item{}
	for _, it := range l.items {
		prev[it.ID] = it
	}
	for i, it := range items {
		if it.State == Done && it.EndedAt == 0 {
			if p, ok := prev[it.ID]; ok && p.State == Done && p.EndedAt != 0 {
				items[i].EndedAt = p.EndedAt
			} else {
				items[i].EndedAt = now.UnixMilli()
			}
		}
	}
	l.items = items
}

// Reset empties the list.
func (l *Live) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = nil
}

// Items returns the whole list, done items past their time included.
func (l *Live) Items() []Item {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.items)
}

// Visible returns the items the chip shows at now.
func (l *Live) Visible(now time.Time) []Item {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Item
	for _, it := range l.items {
		if it.State == Running || now.Before(it.visibleUntil()) {
			out = append(out, it)
		}
	}
	return out
}

// NextExpiry returns the next time after now at which a done item leaves
// the chip, or false when none will.
func (l *Live) NextExpiry(now time.Time) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var next time.Time
	found := false
	for _, it := range l.items {
		if it.State != Done {
			continue
		}
		if u := it.visibleUntil(); now.Before(u) && (!found || u.Before(next)) {
			next, found = u, true
		}
	}
	return next, found
}
