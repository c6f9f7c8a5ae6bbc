package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"time"

	"yui/app/atomicfile"
)

// On disk a transcript is a snapshot and a journal (issue 23: a row used
// to rewrite and fsync the whole file, so a flood of delegation rows wrote
// hundreds of megabytes):
//
//   - transcript-<id>.json, the snapshot: the whole file, written
//     atomically; its "journal" member names the journal generation that
//     continues it.
//   - transcript-<id>.json.journal: JSON lines. The first is {"gen":N};
//     each other is one change — {"put":{…}} an entry added or changed,
//     whole, or {"clear":true} — applied in order over the snapshot. A
//     journal whose generation is not the snapshot's is stale (a crash
//     between writing a snapshot and starting its journal) and is ignored:
//     the snapshot holds all of it.
//
// A change costs one line per entry it touched, written to the OS before
// the call returns, so a crash of the process loses nothing that was
// shown. Lines are synced to the disk SyncDelay after the first unsynced
// one (a flood of changes costs one fsync); a line the user typed and the
// exchange a request transport sends next are synced before the call
// returns; Close syncs. When the journal outgrows the snapshot (and at
// least compactAt) the store writes a new snapshot and starts an empty
// journal, so what a change writes stays proportional to the change (at
// most about twice its line, counting the snapshots). Open replays the
// journal (a torn last line, from a crash mid-write, is dropped) and
// compacts.

const (
	// SyncDelay is how long journal lines may wait for their fsync.
	SyncDelay = 500 * time.Millisecond
	// compactAt is the journal size below which it is never compacted.
	compactAt = 256 << 10
)

// journal is the open journal of a Store; guarded by the Store's mu.
type journal struct {
	path     string
	f        *os.File // open for appending; nil before the first compaction
	gen      uint64
	size     int64 // bytes in the journal file
	base     int64 // bytes of the last snapshot
	unsynced bool
	timer    *time.Timer
	broken   bool  // a write failed: the next save writes a snapshot
	written  int64 // bytes written in all (snapshots, journals), for tests
}

// journalLine is one line of the journal.
type journalLine struct {
	Gen   uint64 `json:"gen,omitempty"`
	Put   *Entry `json:"put,omitempty"`
	Clear bool   `json:"clear,omitempty"`
	// NextID rides on a clear: ids are never reused.
	NextID uint64 `json:"next_id,omitempty"`
}

func journalPath(path string) string {
	if path == "" {
		return ""
	}
	return path + ".journal"
}

// saveLocked journals es and the entries changed in memory only; sync
// puts them on the disk before it returns.
func (s *Store) saveLocked(sync bool, es ...Entry) {
	if s.path == "" {
		clear(s.dirty)
		return
	}
	for _, e := range s.f.Entries {
		if s.dirty[e.ID] && !slices.ContainsFunc(es, func(x Entry) bool { return x.ID == e.ID }) {
			es = append(es, e)
		}
	}
	clear(s.dirty)
	if s.j.f == nil || s.j.broken {
		s.compactLocked()
		return
	}
	var b []byte
	for i := range es {
		l, err := json.Marshal(journalLine{Put: &es[i]})
		if err != nil {
			continue
		}
		b = append(append(b, l...), '\n')
	}
	s.appendLocked(b, sync)
}

// clearLocked journals an emptied transcript, synced (New conversation
// must not come back after a crash).
func (s *Store) clearLocked() {
	if s.path == "" {
		return
	}
	if s.j.f == nil || s.j.broken {
		s.compactLocked()
		return
	}
	l, _ := json.Marshal(journalLine{Clear: true, NextID: s.f.NextID})
	s.appendLocked(append(l, '\n'), true)
}

func (s *Store) appendLocked(b []byte, sync bool) {
	if len(b) == 0 {
		return
	}
	n, err := s.j.f.Write(b)
	s.j.size += int64(n)
	s.j.written += int64(n)
	if err != nil {
		s.log.Warn("transcript_save_failed", "path", s.j.path, "err", err.Error())
		s.j.broken = true
		return
	}
	if s.j.size > max(s.j.base, compactAt) {
		s.compactLocked()
		return
	}
	if sync {
		s.syncLocked()
		return
	}
	s.j.unsynced = true
	if s.j.timer == nil {
		s.j.timer = time.AfterFunc(SyncDelay, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.j.timer = nil
			s.syncLocked()
		})
	}
}

// syncLocked puts the journal's lines on the disk.
func (s *Store) syncLocked() {
	if s.j.timer != nil {
		s.j.timer.Stop()
		s.j.timer = nil
	}
	if !s.j.unsynced || s.j.f == nil {
		return
	}
	s.j.unsynced = false
	if err := s.j.f.Sync(); err != nil {
		s.log.Warn("transcript_save_failed", "path", s.j.path, "err", err.Error())
		s.j.broken = true
	}
}

// compactLocked writes a snapshot of the transcript and starts its journal
// empty. A snapshot that cannot be written leaves the old snapshot and
// journal as they were (and the next save tries again).
func (s *Store) compactLocked() {
	if s.path == "" {
		return
	}
	gen := s.j.gen + 1
	s.f.Journal = gen
	b, err := json.Marshal(s.f)
	if err == nil {
		err = atomicfile.Write(s.path, b, 0o600)
	}
	if err != nil {
		s.f.Journal = s.j.gen
		s.j.broken = true
		s.log.Warn("transcript_save_failed", "path", s.path, "err", err.Error())
		return
	}
	s.j.written += int64(len(b))
	s.j.base = int64(len(b))
	// The snapshot holds everything now: the old journal is stale from
	// here on, whatever happens next.
	s.closeJournalLocked()
	s.j.gen = gen
	hdr, _ := json.Marshal(journalLine{Gen: gen})
	hdr = append(hdr, '\n')
	err = atomicfile.Write(s.j.path, hdr, 0o600)
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(s.j.path, os.O_WRONLY|os.O_APPEND, 0o600)
	}
	if err != nil {
		s.j.broken = true // the next save writes a snapshot again
		s.log.Warn("transcript_save_failed", "path", s.j.path, "err", err.Error())
		return
	}
	s.j.f, s.j.size, s.j.broken = f, int64(len(hdr)), false
	s.j.written += int64(len(hdr))
}

func (s *Store) closeJournalLocked() {
	s.syncLocked()
	if s.j.f != nil {
		s.j.f.Close()
		s.j.f = nil
	}
}

// replayLocked applies the journal that continues the snapshot read.
func (s *Store) replayLocked() {
	s.j.gen = s.f.Journal
	b, err := readBounded(s.j.path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		aside, kerr := atomicfile.KeepAside(s.j.path)
		s.log.Warn("transcript_journal_unreadable", "path", s.j.path, "kept_as", aside, "err", err.Error(), "keep_err", fmt.Sprint(kerr))
		return
	}
	lines := bytes.Split(b, []byte{'\n'})
	var hdr journalLine
	if json.Unmarshal(lines[0], &hdr) != nil || hdr.Gen == 0 || hdr.Gen != s.f.Journal {
		return // stale: the snapshot was written after it
	}
	for i, raw := range lines[1:] {
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		var l journalLine
		if err := json.Unmarshal(raw, &l); err != nil {
			// A crash in the middle of a line: it and anything after it
			// were never acknowledged.
			s.log.Warn("transcript_journal_torn", "path", s.j.path, "line", i+2, "dropped_bytes", len(bytes.Join(lines[i+1:], []byte{'\n'})))
			break
		}
		switch {
		case l.Clear:
			s.f.Entries = nil
			s.f.NextID = max(s.f.NextID, l.NextID)
		case l.Put != nil:
			s.putLocked(*l.Put)
		}
	}
}

// putLocked sets an entry by its ID, keeping the entries in ID order.
func (s *Store) putLocked(e Entry) {
	bound(&e)
	s.f.NextID = max(s.f.NextID, e.ID+1)
	i, found := slices.BinarySearchFunc(s.f.Entries, e.ID, func(x Entry, id uint64) int {
		switch {
		case x.ID < id:
			return -1
		case x.ID > id:
			return 1
		}
		return 0
	})
	if found {
		s.f.Entries[i] = e
		return
	}
	s.f.Entries = slices.Insert(s.f.Entries, i, e)
}

// Flush puts every change on the disk now.
func (s *Store) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.dirty) > 0 {
		s.saveLocked(false)
	}
	s.syncLocked()
}

// Close flushes the store and closes its journal (on quit). A change made
// after Close is still saved (a snapshot and a new journal).
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.dirty) > 0 {
		s.saveLocked(false)
	}
	s.closeJournalLocked()
	return nil
}
