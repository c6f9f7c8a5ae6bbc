package memory

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"yui/app/atomicfile"
	"yui/transport"
)

// Bounds of a character's memory.
const (
	// MaxSummaryBytes bounds the running summary (a model's longer one
	// is cut at a sentence or word; the user's edit over it is refused).
	MaxSummaryBytes = 8 << 10
	// MaxFacts bounds how many facts she keeps.
	MaxFacts = 32
	// MaxFactBytes bounds one fact.
	MaxFactBytes = 240
)

// Errors of the facts' bounds (wrapped with the fact or the count).
var (
	ErrTooManyFacts = errors.New("memory full")
	ErrFactTooLong  = errors.New("fact too long")
	ErrEmptyFact    = errors.New("empty fact")
	ErrNoSuchFact   = errors.New("no such fact")
	ErrSummaryLong  = errors.New("summary too long")
)

// State is a character's memory as saved and as settings shows it.
type State struct {
	// Summary is the running summary of the conversation's oldest part.
	Summary string `json:"summary"`
	// Covered marks the last transcript message the summary covers.
	Covered string `json:"covered,omitempty"`
	// Facts are what she keeps about the user, oldest first.
	Facts []string `json:"facts"`
}

// Store is one character's memory. Safe for concurrent use.
type Store struct {
	mu       sync.Mutex
	file     atomicfile.JSONFile[State]
	log      *slog.Logger
	st       State
	onChange func(State)
}

var _ transport.Memory = (*Store)(nil)

// Path is the memory file of preset id in dir.
func Path(dir, id string) string {
	return filepath.Join(dir, "memory-"+atomicfile.SafeName(id)+".json")
}

// Open reads the memory at path (missing: empty; corrupt: kept aside and
// empty). onChange, when set, hears every change after it is saved (the
// settings window's view); it is called without the store's lock.
func Open(path string, lg *slog.Logger, onChange func(State)) (*Store, error) {
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	s := &Store{log: lg, onChange: onChange, file: atomicfile.JSONFile[State]{
		Path: path, Pkg: "memory", What: "memory", Event: "memory", Log: lg, Check: check}}
	st, _, err := s.file.Load()
	if err != nil {
		return s, fmt.Errorf("memory: open: %w", err)
	}
	s.st = st
	return s, nil
}

// check refuses a file over the bounds (it is kept aside, not trusted).
func check(st *State) error {
	if len(st.Summary) > MaxSummaryBytes {
		return fmt.Errorf("summary: %w", ErrSummaryLong)
	}
	if len(st.Facts) > MaxFacts {
		return fmt.Errorf("%d facts: %w", len(st.Facts), ErrTooManyFacts)
	}
	for _, f := range st.Facts {
		if len(f) > MaxFactBytes {
			return fmt.Errorf("%q: %w", f, ErrFactTooLong)
		}
	}
	return nil
}

// State returns a copy of the memory.
func (s *Store) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.copyLocked()
}

func (s *Store) copyLocked() State {
	st := s.st
	st.Facts = slices.Clone(s.st.Facts)
	return st
}

// change applies f under the lock, saves and tells onChange. f returns
// false to change nothing.
func (s *Store) change(f func(*State) (bool, error)) error {
	s.mu.Lock()
	next := s.copyLocked()
	ok, err := f(&next)
	if err != nil || !ok {
		s.mu.Unlock()
		return err
	}
	if _, _, werr := s.file.Writable(); werr != nil {
		s.mu.Unlock()
		return fmt.Errorf("memory: not saved: %w", werr)
	}
	if err := s.file.Save(next); err != nil {
		s.mu.Unlock()
		return fmt.Errorf("memory: save: %w", err)
	}
	s.st = next
	out := s.copyLocked()
	s.mu.Unlock()
	if s.onChange != nil {
		s.onChange(out)
	}
	return nil
}

// Set replaces what the user edited in settings: the summary and the
// facts (blank facts dropped, duplicates once). Over a bound it is
// refused as a whole, naming the part.
func (s *Store) Set(summary string, facts []string) error {
	summary = strings.TrimSpace(summary)
	if len(summary) > MaxSummaryBytes {
		return fmt.Errorf("memory summary is %d bytes, over %d: %w", len(summary), MaxSummaryBytes, ErrSummaryLong)
	}
	var clean []string
	for _, f := range facts {
		f, err := normFact(f)
		if errors.Is(err, ErrEmptyFact) {
			continue
		}
		if err != nil {
			return err
		}
		if !slices.Contains(clean, f) {
			clean = append(clean, f)
		}
	}
	if len(clean) > MaxFacts {
		return fmt.Errorf("%d facts, over %d: %w", len(clean), MaxFacts, ErrTooManyFacts)
	}
	return s.change(func(st *State) (bool, error) {
		st.Summary, st.Facts = summary, clean
		return true, nil
	})
}

// Clear forgets the summary and the facts. The mark stays: what the
// summary covered is not summarised again.
func (s *Store) Clear() error {
	return s.change(func(st *State) (bool, error) {
		st.Summary, st.Facts = "", nil
		return true, nil
	})
}

// normFact is a fact as kept: one line, trimmed, within MaxFactBytes.
func normFact(f string) (string, error) {
	f = strings.Join(strings.FieldsFunc(f, func(r rune) bool { return r == '\n' || r == '\r' }), " ")
	f = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, f)
	f = strings.TrimSpace(f)
	switch {
	case f == "":
		return "", ErrEmptyFact
	case len(f) > MaxFactBytes || !utf8.ValidString(f):
		return "", fmt.Errorf("a fact is at most %d bytes of text (this one is %d): %w", MaxFactBytes, len(f), ErrFactTooLong)
	}
	return f, nil
}

// Remember adds a fact (the remember tool). A fact already kept is kept
// once; a full memory refuses it (the user or forget makes room).
func (s *Store) Remember(fact string) error {
	f, err := normFact(fact)
	if err != nil {
		return err
	}
	return s.change(func(st *State) (bool, error) {
		if slices.ContainsFunc(st.Facts, func(k string) bool { return strings.EqualFold(k, f) }) {
			return false, nil
		}
		if len(st.Facts) >= MaxFacts {
			return false, fmt.Errorf("%d facts kept already; forget one first: %w", MaxFacts, ErrTooManyFacts)
		}
		st.Facts = append(st.Facts, f)
		return true, nil
	})
}

// Forget removes a fact (the forget tool): the one equal to fact (case
// aside), else the only one containing it. ErrNoSuchFact when none or
// several match.
func (s *Store) Forget(fact string) error {
	f, err := normFact(fact)
	if err != nil {
		return err
	}
	return s.change(func(st *State) (bool, error) {
		i := slices.IndexFunc(st.Facts, func(k string) bool { return strings.EqualFold(k, f) })
		if i < 0 {
			var hits []int
			low := strings.ToLower(f)
			for j, k := range st.Facts {
				if strings.Contains(strings.ToLower(k), low) {
					hits = append(hits, j)
				}
			}
			if len(hits) != 1 {
				return false, fmt.Errorf("%q matches %d facts: %w", f, len(hits), ErrNoSuchFact)
			}
			i = hits[0]
		}
		st.Facts = slices.Delete(st.Facts, i, i+1)
		return true, nil
	})
}

// Summary is the running summary and its mark (transport.Memory).
func (s *Store) Summary() (string, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.Summary, s.st.Covered
}

// Summarised stores the model's new summary unless the user changed the
// summary since from was read (transport.Memory). A summary over
// MaxSummaryBytes is cut at a word.
func (s *Store) Summarised(from, text, covered string) {
	text = cutText(strings.TrimSpace(text), MaxSummaryBytes)
	err := s.change(func(st *State) (bool, error) {
		if st.Summary != from {
			return false, nil
		}
		st.Summary, st.Covered = text, covered
		return true, nil
	})
	if err != nil {
		s.log.Warn("memory.summary_not_saved", "err", err.Error())
	}
}

// System is the memory worded for the system part (transport.Memory).
func (s *Store) System() string {
	st := s.State()
	return SystemText(st)
}

// SystemText words a memory for the model; "" when it is empty.
func SystemText(st State) string {
	var b strings.Builder
	if st.Summary != "" {
		b.WriteString("What you remember of your earlier conversation with the user (a summary):\n")
		b.WriteString(st.Summary)
	}
	if len(st.Facts) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("Facts you keep about the user (remember and forget change them):\n")
		for _, f := range st.Facts {
			b.WriteString("- ")
			b.WriteString(f)
			b.WriteByte('\n')
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// cutText keeps at most n bytes of s, cut after a sentence or a word.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	if i := strings.LastIndexAny(s, ".!?\n"); i > n/2 {
		return s[:i+1]
	}
	if i := strings.LastIndexByte(s, ' '); i > n/2 {
		return s[:i]
	}
	return s
}
