package clientctx

import (
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"yui/app/atomicfile"
)

// PreviousStore persists the previous-turn record of one preset.
type PreviousStore struct {
	mu   sync.Mutex
	file atomicfile.JSONFile[Record]
	rec  *Record
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
	s := &PreviousStore{file: atomicfile.JSONFile[Record]{
		Path: filepath.Join(dir, "previous-turn-"+atomicfile.SafeName(preset)+".json"),
		Pkg:  "clientctx", What: "previous-turn record", Event: "previous_turn", Log: log,
		Check:    func(r *Record) error { return r.Valid() },
		ReadFile: func(p string) ([]byte, error) { return readFile(p) },
	}}
	rec, found, err := s.file.Load()
	if found {
		s.rec = &rec
	}
	return s, err
}

// Path is the file the store writes.
func (s *PreviousStore) Path() string { return s.file.Path }

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
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rec = &r
	if _, _, err := s.file.Writable(); err != nil {
		return err
	}
	return s.file.Save(r)
}

// Clear forgets the record (the last turn played to its end).
func (s *PreviousStore) Clear() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rec = nil
	if _, _, err := s.file.Writable(); err != nil {
		return err
	}
	return s.file.Remove()
}
