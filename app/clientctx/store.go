package clientctx

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"yui/app/atomicfile"
)

// PreviousStore persists the previous-turn record of one preset.
type PreviousStore struct {
	path string
	log  *slog.Logger

	mu  sync.Mutex
	rec *Record
	// unread is the error of the last read when it failed for a reason
	// other than a missing or corrupt file: until a read succeeds, the
	// file is neither written nor removed (the record is held in memory).
	unread error
}

// readFile reads the record file; tests swap it to fail reads.
var readFile = os.ReadFile

// OpenPrevious loads the record of preset from dir. The store is never nil:
// on a read error it starts empty, the error is returned for logging, and
// the file is left alone until a later read of it succeeds (retried before
// each Set or Clear). A corrupt file is renamed aside as <file>.bad (then
// .bad.1, .bad.2, …, never over an earlier one) and is not an error.
func OpenPrevious(dir, preset string, log *slog.Logger) (*PreviousStore, error) {
	if log == nil {
		log = slog.Default()
	}
	s := &PreviousStore{path: filepath.Join(dir, "previous-turn-"+atomicfile.SafeName(preset)+".json"), log: log}
	rec, err := s.load()
	s.rec, s.unread = rec, err
	return s, err
}

// load reads the file: nil for a missing or corrupt one (set aside).
func (s *PreviousStore) load() (*Record, error) {
	data, err := readFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("clientctx: read previous-turn record %s: %w", s.path, err)
	}
	var rec Record
	if err := json.Unmarshal(data, &rec); err != nil || rec.Valid() != nil {
		if err == nil {
			err = rec.Valid()
		}
		s.setAside(err)
		return nil, nil
	}
	return &rec, nil
}

// writableLocked reports whether the file may be written: after a failed
// read it reads again, and refuses (logged) while that still fails.
func (s *PreviousStore) writableLocked() error {
	if s.unread == nil {
		return nil
	}
	if _, err := s.load(); err != nil {
		s.log.Warn("previous_turn.not_saved", "path", s.path, "err", err.Error())
		return fmt.Errorf("clientctx: previous-turn record not saved: the file could not be read: %w", err)
	}
	s.unread = nil
	return nil
}

// Path is the file the store writes.
func (s *PreviousStore) Path() string { return s.path }

// Get returns the held record.
func (s *PreviousStore) Get() (Record, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec == nil {
		return Record{}, false
	}
	return *s.rec, true
}

// Set holds r and writes it. The record is held even when writing fails.
func (s *PreviousStore) Set(r Record) error {
	if err := r.Valid(); err != nil {
		return err
	}
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("clientctx: encode previous-turn record: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rec = &r
	if err := s.writableLocked(); err != nil {
		return err
	}
	if err := atomicfile.Write(s.path, data, 0o600); err != nil {
		return fmt.Errorf("clientctx: save previous-turn record: %w", err)
	}
	return nil
}

// Clear forgets the record (the last turn played to its end).
func (s *PreviousStore) Clear() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rec = nil
	if err := s.writableLocked(); err != nil {
		return err
	}
	if err := os.Remove(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("clientctx: clear previous-turn record: %w", err)
	}
	return nil
}

func (s *PreviousStore) setAside(cause error) {
	bad, err := atomicfile.KeepAside(s.path)
	if err != nil {
		s.log.Warn("previous_turn.corrupt", "path", s.path, "err", cause.Error(), "set_aside_err", err.Error())
		return
	}
	s.log.Warn("previous_turn.corrupt", "path", s.path, "err", cause.Error(), "kept_as", bad)
}
