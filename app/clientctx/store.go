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
}

// OpenPrevious loads the record of preset from dir. The store is never nil:
// on a read error it starts empty and the error is returned for logging. A
// corrupt file is renamed aside as <file>.bad and is not an error.
func OpenPrevious(dir, preset string, log *slog.Logger) (*PreviousStore, error) {
	if log == nil {
		log = slog.Default()
	}
	s := &PreviousStore{path: filepath.Join(dir, "previous-turn-"+fileSafe(preset)+".json"), log: log}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("clientctx: read previous-turn record %s: %w", s.path, err)
	}
	var rec Record
	if err := json.Unmarshal(data, &rec); err != nil || rec.Valid() != nil {
		if err == nil {
			err = rec.Valid()
		}
		s.setAside(err)
		return s, nil
	}
	s.rec = &rec
	return s, nil
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
	if err := os.Remove(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("clientctx: clear previous-turn record: %w", err)
	}
	return nil
}

func (s *PreviousStore) setAside(cause error) {
	bad := s.path + ".bad"
	if err := os.Rename(s.path, bad); err != nil {
		s.log.Warn("previous_turn.corrupt", "path", s.path, "err", cause.Error(), "set_aside_err", err.Error())
		return
	}
	s.log.Warn("previous_turn.corrupt", "path", s.path, "err", cause.Error(), "kept_as", bad)
}

// fileSafe keeps [A-Za-z0-9_-] and percent-encodes every other byte, so
// any preset name maps to one plain file name.
func fileSafe(preset string) string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(preset))
	for i := 0; i < len(preset); i++ {
		c := preset[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
			b = append(b, c)
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return string(b)
}
