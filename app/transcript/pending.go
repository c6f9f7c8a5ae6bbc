package transcript

import (
	"slices"
	"time"

	"yui/app/history"
)

// Changes are grouped into transactions (issue 23: a flood of delegation
// rows must not write a database page per row). A change is held in
// memory (dirty, which every read sees over the database's rows) and
// committed with the others in one transaction SyncDelay after the first
// one that waits; a line the user typed, the exchange a request transport
// sends next and New conversation are committed, on the disk, before the
// call returns (with everything that waited); Flush and Close commit what
// waits. So a killed process loses at most the backend's rows of the last
// SyncDelay, never a committed one (a kill mid-transaction leaves the
// commit before it), never the user's line.

// SyncDelay is how long a change may wait for its transaction.
const SyncDelay = 500 * time.Millisecond

// saveLocked holds es for the next commit; sync commits now, on the disk.
func (s *Store) saveLocked(sync bool, es ...Entry) {
	for _, e := range es {
		s.dirty[e.ID] = e
	}
	if sync {
		s.commitLocked(true)
		return
	}
	if s.timer == nil && len(s.dirty) > 0 {
		s.timer = time.AfterFunc(SyncDelay, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.timer = nil
			s.commitLocked(false)
		})
	}
}

// commitLocked writes what waits in one transaction. A failed commit
// keeps it waiting (the next save tries again) and is logged.
func (s *Store) commitLocked(sync bool) {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if len(s.dirty) == 0 {
		return
	}
	rows := make([]history.Row, 0, len(s.dirty))
	for _, e := range s.dirty {
		rows = append(rows, toRow(s.conv, e))
	}
	slices.SortFunc(rows, func(a, b history.Row) int { return cmpID(a.ID, b.ID) })
	if err := s.db.Put(sync, rows...); err != nil {
		s.log.Warn("transcript_save_failed", "path", s.db.File(), "err", err.Error())
		return
	}
	s.commits++
	clear(s.dirty)
}

// overlay is a row as the store sees it (a change not committed wins).
func (s *Store) overlay(r history.Row) Entry {
	if e, ok := s.dirty[r.ID]; ok {
		return e
	}
	return FromRow(r)
}

// mergeLocked is rows (read with err) with the changes not committed
// over them, those keep accepts, oldest first, the newest n (n < 0: all).
func (s *Store) mergeLocked(rows []history.Row, err error, keep func(Entry) bool, n int) []Entry {
	if err != nil {
		s.log.Warn("transcript_read_failed", "path", s.db.File(), "err", err.Error())
	}
	out := make([]Entry, 0, len(rows)+len(s.dirty))
	seen := make(map[uint64]bool, len(rows))
	for _, r := range rows {
		seen[r.ID] = true
		if e := s.overlay(r); keep(e) {
			out = append(out, e)
		}
	}
	for id, e := range s.dirty {
		if !seen[id] && keep(e) {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b Entry) int { return cmpID(a.ID, b.ID) })
	if n >= 0 && len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}
