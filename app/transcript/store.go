package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"yui/app/atomicfile"
	"yui/transport"
)

// Entry kinds.
const (
	KindUser       = "user"       // a line the user typed (or said)
	KindReply      = "reply"      // her reply: Text as she said it, Reasoning folded
	KindTool       = "tool"       // a tool call: Text its label, State running/done/failed
	KindDelegation = "delegation" // a background task started or ended: Text its title, State
	KindError      = "error"      // a failure line or an error the turn ended with
	KindCharacter  = "character"  // one character to another: Text "Yui → Mika: …"
)

// Bounds.
const (
	// MaxEntries is how many entries the file keeps (the oldest leave).
	MaxEntries = 400
	// MaxTextBytes bounds one entry's Text and Sent; MaxReasoningBytes its
	// Reasoning (the start is kept).
	MaxTextBytes      = 32 << 10
	MaxReasoningBytes = 16 << 10
	// MaxFileBytes is the most a transcript file is read of; a larger one
	// is unreadable (kept aside, see Open).
	MaxFileBytes = 48 << 20
)

// Entry is one row of the transcript.
type Entry struct {
	// ID grows with every entry of the file (never reused, also across
	// a reset), so a page can update a row in place.
	ID     uint64 `json:"id"`
	TurnID string `json:"turn_id,omitempty"`
	Kind   string `json:"kind"`
	Text   string `json:"text"`
	// Reasoning of a reply, as it streamed.
	Reasoning string `json:"reasoning,omitempty"`
	// State: a reply "streaming" or "done"; a tool "running", "done" or
	// "failed"; a delegation "running" or "done".
	State string `json:"state,omitempty"`
	// At is when the entry began, in epoch milliseconds.
	At int64 `json:"at"`
	// Sent is what a request transport sends for this entry (a user line
	// as sent, a reply as received): RecordExchange sets it. A user entry
	// with Sent but no Text is a turn nobody typed (a trigger), not shown.
	Sent string `json:"sent,omitempty"`
}

type file struct {
	Version int    `json:"version"`
	NextID  uint64 `json:"next_id"`
	// Journal is the generation of the journal that continues this
	// snapshot (journal.go); 0 in a file written before it existed.
	Journal uint64  `json:"journal,omitempty"`
	Entries []Entry `json:"entries"`
}

// Store is one character's transcript file.
type Store struct {
	path string
	log  *slog.Logger
	now  func() time.Time

	mu    sync.Mutex
	f     file
	j     journal
	dirty map[uint64]bool // entries changed in memory only (Update without save)
}

// Open reads the transcript at path; a missing file is an empty
// transcript; path "" keeps it in memory only. An unreadable one (not JSON, too large) is moved aside with
// atomicfile.KeepAside so nothing is lost, logged, and the store starts
// empty; the error says where the file went. now may be nil (time.Now).
func Open(path string, log *slog.Logger, now func() time.Time) (*Store, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	s := &Store{path: path, log: log, now: now, f: file{Version: 1, NextID: 1}, dirty: map[uint64]bool{}}
	s.j.path = journalPath(path)
	if path == "" {
		return s, nil
	}
	b, err := readBounded(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		err = nil
	case err == nil:
		var f file
		if err = json.Unmarshal(b, &f); err == nil {
			if f.NextID == 0 {
				f.NextID = 1
			}
			f.Version = 1
			s.f = f
		}
	}
	var openErr error
	if err != nil {
		aside, kerr := atomicfile.KeepAside(path)
		if kerr != nil {
			openErr = fmt.Errorf("transcript: %s unreadable (%v) and not kept aside: %w", path, err, kerr)
		} else {
			log.Warn("transcript_unreadable", "path", path, "kept_as", aside, "err", err.Error())
			openErr = fmt.Errorf("transcript: %s unreadable, kept as %s: %w", path, aside, err)
		}
		s.f = file{Version: 1, NextID: 1}
		if _, jerr := os.Stat(s.j.path); jerr == nil {
			// Its journal continues a snapshot that is gone: kept too.
			if jaside, kerr := atomicfile.KeepAside(s.j.path); kerr == nil {
				log.Warn("transcript_journal_kept_aside", "path", s.j.path, "kept_as", jaside)
			}
		}
	} else {
		s.replayLocked()
	}
	for _, e := range s.f.Entries {
		s.f.NextID = max(s.f.NextID, e.ID+1)
	}
	s.trimLocked()
	// A fresh snapshot and an empty journal: what was replayed is folded
	// in, and the journal starts small.
	s.compactLocked()
	return s, openErr
}

func readBounded(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("over %d bytes", MaxFileBytes)
	}
	return b, nil
}

// Path is the file the store writes.
func (s *Store) Path() string { return s.path }

// Entries returns a copy of the entries, oldest first.
func (s *Store) Entries() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Entry(nil), s.f.Entries...)
}

// Add appends an entry (its ID and, when zero, At are set), saves, and
// returns it as stored.
func (s *Store) Add(e Entry) Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.ID = s.f.NextID
	s.f.NextID++
	if e.At == 0 {
		e.At = s.now().UnixMilli()
	}
	bound(&e)
	s.f.Entries = append(s.f.Entries, e)
	s.trimLocked()
	// A line the user typed is on disk before it shows as sent.
	s.saveLocked(e.Kind == KindUser && e.Text != "", e)
	return e
}

// Update changes the newest entry of turnID and kind with fn and returns
// it; save false keeps the change in memory only (a reasoning delta: the
// next saved change writes it). ok is false when there is no such entry.
func (s *Store) Update(turnID, kind string, save bool, fn func(*Entry)) (Entry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.findLocked(turnID, kind)
	if i < 0 {
		return Entry{}, false
	}
	fn(&s.f.Entries[i])
	bound(&s.f.Entries[i])
	if save {
		s.saveLocked(false, s.f.Entries[i])
	} else {
		s.dirty[s.f.Entries[i].ID] = true
	}
	return s.f.Entries[i], true
}

// FinishReplies marks every reply still "streaming" "done" (the turn is
// over, her speech included), saves, and returns the changed entries.
func (s *Store) FinishReplies() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Entry
	for i := range s.f.Entries {
		if e := &s.f.Entries[i]; e.Kind == KindReply && e.State == "streaming" {
			e.State = "done"
			out = append(out, *e)
		}
	}
	if len(out) > 0 {
		s.saveLocked(false, out...)
	}
	return out
}

// Find returns the newest entry of turnID and kind.
func (s *Store) Find(turnID, kind string) (Entry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.findLocked(turnID, kind)
	if i < 0 {
		return Entry{}, false
	}
	return s.f.Entries[i], true
}

// Clear empties the transcript (New conversation) and saves.
func (s *Store) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.f.Entries = nil
	clear(s.dirty)
	s.clearLocked()
}

// Exchanges implements transport.History: the user and assistant messages
// RecordExchange recorded, oldest first.
func (s *Store) Exchanges() []transport.HistoryMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []transport.HistoryMessage
	for _, e := range s.f.Entries {
		if e.Sent == "" {
			continue
		}
		switch e.Kind {
		case KindUser:
			out = append(out, transport.HistoryMessage{Role: "user", Content: e.Sent})
		case KindReply:
			out = append(out, transport.HistoryMessage{Role: "assistant", Content: e.Sent})
		}
	}
	return out
}

// RecordExchange implements transport.History: the turn's user entry and
// reply entry get Sent (made when missing: a turn nobody typed, a reply
// not shown yet), and the file is saved.
func (s *Store) RecordExchange(turnID, user, assistant string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now().UnixMilli()
	var changed []uint64
	if i := s.findLocked(turnID, KindUser); i >= 0 {
		s.f.Entries[i].Sent = user
		bound(&s.f.Entries[i])
		changed = append(changed, s.f.Entries[i].ID)
	} else {
		e := Entry{ID: s.f.NextID, TurnID: turnID, Kind: KindUser, Sent: user, At: now}
		s.f.NextID++
		bound(&e)
		s.f.Entries = append(s.f.Entries, e)
		changed = append(changed, e.ID)
	}
	if i := s.findLocked(turnID, KindReply); i >= 0 {
		s.f.Entries[i].Sent = assistant
		bound(&s.f.Entries[i])
		changed = append(changed, s.f.Entries[i].ID)
	} else {
		e := Entry{ID: s.f.NextID, TurnID: turnID, Kind: KindReply, Sent: assistant, State: "streaming", At: now}
		s.f.NextID++
		bound(&e)
		s.f.Entries = append(s.f.Entries, e)
		changed = append(changed, e.ID)
	}
	s.trimLocked()
	// The conversation a request transport sends next is on disk first.
	var es []Entry
	for _, e := range s.f.Entries {
		if slices.Contains(changed, e.ID) {
			es = append(es, e)
		}
	}
	s.saveLocked(true, es...)
}

func (s *Store) findLocked(turnID, kind string) int {
	for i := len(s.f.Entries) - 1; i >= 0; i-- {
		if e := s.f.Entries[i]; e.TurnID == turnID && e.Kind == kind {
			return i
		}
	}
	return -1
}

func (s *Store) trimLocked() {
	if n := len(s.f.Entries); n > MaxEntries {
		s.f.Entries = append([]Entry(nil), s.f.Entries[n-MaxEntries:]...)
	}
}

func bound(e *Entry) {
	e.Text = cut(e.Text, MaxTextBytes)
	e.Sent = cut(e.Sent, MaxTextBytes)
	e.Reasoning = cut(e.Reasoning, MaxReasoningBytes)
}

// cut keeps the first n bytes of s, on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
