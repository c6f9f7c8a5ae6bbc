package transcript

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"
	"unicode/utf8"

	"yui/app/atomicfile"
	"yui/app/history"
	"yui/transport"
)

// Entry kinds.
const (
	KindUser       = "user"       // a line the user typed (or said)
	KindReply      = "reply"      // her reply: Text as she said it, Reasoning folded
	KindTool       = "tool"       // a tool call: Text its label, State running/done/failed
	KindDelegation = "delegation" // a background task started or ended: Text its title, State
	KindError      = "error"      // a failure line or an error the turn ended with
)

// Bounds.
const (
	// MaxEntries is how many entries of the current conversation Entries
	// and Exchanges return (the newest); the history keeps them all
	// (app/history, up to history.MaxRows).
	MaxEntries = 400
	// MaxTextBytes bounds one entry's Text and Sent; MaxReasoningBytes its
	// Reasoning (the start is kept).
	MaxTextBytes      = 32 << 10
	MaxReasoningBytes = 16 << 10
	// MaxFileBytes is the most an older transcript file (or its journal)
	// is read of at its migration; a larger one is kept aside.
	MaxFileBytes = history.MaxImportBytes
)

// Entry is one row of the transcript.
type Entry struct {
	// ID grows with every entry of the history (never reused, also across
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

// Store is one character's transcript: the current conversation of her
// history (app/history).
type Store struct {
	db  *history.DB
	log *slog.Logger
	now func() time.Time

	mu     sync.Mutex
	conv   int64
	nextID uint64
	// dirty holds the entries changed since the last commit (pending.go):
	// reads see them over the database's rows.
	dirty map[uint64]Entry
	timer *time.Timer // commits dirty SyncDelay after a saved change
	// commits counts the transactions written (for tests).
	commits int
}

// Open opens the transcript of character id in the config directory dir
// (its history database, app/history); dir "" keeps it in memory only.
// A transcript file of an older Yui (transcript-<id>.json and its
// journal) is imported once and kept as .bak; one that does not parse is
// kept aside (atomicfile.KeepAside) and the store starts without it: the
// error says where the file went (the store is usable). An error opening
// the database itself returns a nil Store. now may be nil (time.Now).
func Open(dir, id string, log *slog.Logger, now func() time.Time) (*Store, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	db, err := history.Open(dir, id, log)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	s := &Store{db: db, log: log, now: now, dirty: map[uint64]Entry{}}
	var migErr error
	if dir != "" {
		legacy := filepath.Join(dir, "transcript-"+atomicfile.SafeName(id)+".json")
		migErr = db.Migrate(history.Migration{Name: "transcript", Path: legacy, Also: []string{legacy + ".journal"}, Parse: parseLegacy})
		if migErr != nil {
			log.Warn("transcript_unreadable", "path", legacy, "err", migErr.Error())
			if !errors.Is(migErr, history.ErrDamaged) {
				// Left in place: imported at a later start.
				migErr = fmt.Errorf("transcript: %w", migErr)
			}
		}
	}
	st, err := db.State()
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("transcript: %w", err)
	}
	s.conv, s.nextID = st.Conv, st.NextID
	return s, migErr
}

// DB is the history the store keeps its entries in (for the message
// window's pages, search and export).
func (s *Store) DB() *history.DB { return s.db }

// Conv is the current conversation's number in the history.
func (s *Store) Conv() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conv
}

// Path is the database file the store writes ("" in memory).
func (s *Store) Path() string { return s.db.File() }

func toRow(conv int64, e Entry) history.Row {
	return history.Row{ID: e.ID, Conv: conv, TurnID: e.TurnID, Kind: e.Kind, Text: e.Text, Reasoning: e.Reasoning, State: e.State, At: e.At, Sent: e.Sent}
}

// FromRow is a history row as an Entry.
func FromRow(r history.Row) Entry {
	return Entry{ID: r.ID, TurnID: r.TurnID, Kind: r.Kind, Text: r.Text, Reasoning: r.Reasoning, State: r.State, At: r.At, Sent: r.Sent}
}

// Entries returns a copy of the newest MaxEntries entries of the current
// conversation, oldest first.
func (s *Store) Entries() []Entry {
	return s.Latest(MaxEntries)
}

// Latest returns the newest n entries of the current conversation, oldest
// first: what the message window shows when it opens (its first page).
func (s *Store) Latest(n int) []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	rows, err := s.db.Latest(s.conv, n+len(s.dirty))
	return s.mergeLocked(rows, err, func(Entry) bool { return true }, n)
}

// Add appends an entry (its ID and, when zero, At are set), saves, and
// returns it as stored.
func (s *Store) Add(e Entry) Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.ID = s.nextID
	s.nextID++
	if e.At == 0 {
		e.At = s.now().UnixMilli()
	}
	bound(&e)
	// A line the user typed is on the disk before it shows as sent.
	s.saveLocked(e.Kind == KindUser && e.Text != "", e)
	return e
}

// Update changes the newest entry of turnID and kind with fn and returns
// it; save false keeps the change in memory only (a reasoning delta: the
// next saved change writes it). ok is false when there is no such entry.
func (s *Store) Update(turnID, kind string, save bool, fn func(*Entry)) (Entry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.findLocked(turnID, kind)
	if !ok {
		return Entry{}, false
	}
	fn(&e)
	bound(&e)
	if save {
		s.saveLocked(false, e)
	} else {
		s.dirty[e.ID] = e // the next saved change commits it
	}
	return e, true
}

// FinishReplies marks every reply still "streaming" "done" (the turn is
// over, her speech included), saves, and returns the changed entries.
func (s *Store) FinishReplies() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Entry
	rows, err := s.db.Streaming(s.conv)
	for _, e := range s.mergeLocked(rows, err, func(e Entry) bool { return e.State == "streaming" }, -1) {
		if e.Kind == KindReply {
			e.State = "done"
			out = append(out, e)
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
	return s.findLocked(turnID, kind)
}

func (s *Store) findLocked(turnID, kind string) (Entry, bool) {
	var best Entry
	for _, e := range s.dirty {
		if e.TurnID == turnID && e.Kind == kind && e.ID > best.ID {
			best = e
		}
	}
	r, ok, err := s.db.Find(s.conv, turnID, kind)
	if err != nil {
		s.log.Warn("transcript_read_failed", "path", s.db.File(), "err", err.Error())
	}
	if ok && r.ID > best.ID {
		best = s.overlay(r)
	}
	return best, best.ID != 0
}

// Clear empties the transcript (New conversation): the history starts
// its next conversation (the ones before stay in it, to scroll back to
// and search), on the disk before Clear returns.
func (s *Store) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commitLocked(false)
	if err := s.db.NewConversation(s.conv+1, s.nextID); err != nil {
		s.log.Warn("transcript_save_failed", "path", s.db.File(), "err", err.Error())
	}
	s.conv++
}

// Exchanges implements transport.History: the user and assistant messages
// RecordExchange recorded in the current conversation (the newest
// MaxEntries), oldest first.
func (s *Store) Exchanges() []transport.HistoryMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []transport.HistoryMessage
	rows, err := s.db.Sent(s.conv, MaxEntries+len(s.dirty))
	sent := func(e Entry) bool { return e.Sent != "" && (e.Kind == KindUser || e.Kind == KindReply) }
	for _, e := range s.mergeLocked(rows, err, sent, MaxEntries) {
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
// not shown yet), and both are saved in one transaction, on the disk
// before it returns (the conversation a request transport sends next).
func (s *Store) RecordExchange(turnID, user, assistant string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now().UnixMilli()
	u, ok := s.findLocked(turnID, KindUser)
	if !ok {
		u = Entry{ID: s.nextID, TurnID: turnID, Kind: KindUser, At: now}
		s.nextID++
	}
	u.Sent = user
	bound(&u)
	r, ok := s.findLocked(turnID, KindReply)
	if !ok {
		r = Entry{ID: s.nextID, TurnID: turnID, Kind: KindReply, State: "streaming", At: now}
		s.nextID++
	}
	r.Sent = assistant
	bound(&r)
	s.saveLocked(true, u, r)
}

// Flush commits every change held in memory now: once it returns they
// survive a kill of the process.
func (s *Store) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commitLocked(false)
}

// Close commits the store and closes its database (on quit).
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commitLocked(false)
	return s.db.Close()
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
