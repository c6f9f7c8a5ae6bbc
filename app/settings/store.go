package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"yui/app/atomicfile"
)

// FileName is the settings file's name inside the config directory.
const FileName = "settings.json"

// Report says what Load found.
type Report struct {
	// Created is true when no settings file existed and defaults were written.
	Created bool
	// Problem is the error that made the file unusable, naming the field
	// when one is at fault (a *FieldError or a wrapped json error); nil when
	// the file was fine.
	Problem error
	// KeptAs is where the unusable file was moved, when Problem is set.
	KeptAs string
}

// Store owns the settings file of one config directory. Its methods may be
// called concurrently.
type Store struct {
	path string
	mu   sync.Mutex
	cur  Settings
}

// Open loads the settings in dir (see the package doc for what happens to a
// bad file) and returns a Store holding them. The error is non-nil only when
// the directory cannot be read or written at all.
func Open(dir string) (*Store, Report, error) {
	st := &Store{path: filepath.Join(dir, FileName)}
	rep, err := st.load()
	return st, rep, err
}

// Path returns the settings file's path.
func (st *Store) Path() string { return st.path }

// Get returns a deep copy of the current settings.
func (st *Store) Get() Settings {
	st.mu.Lock()
	defer st.mu.Unlock()
	return clone(st.cur)
}

// Update applies fn to a copy of the settings, validates the result and, if
// it is valid, writes it atomically and makes it current. A refused change
// returns the *FieldError and changes nothing.
func (st *Store) Update(fn func(*Settings)) error {
	return st.Change(func(s *Settings) error { fn(s); return nil })
}

// Change is Update for a change that can refuse itself: when fn returns an
// error, nothing is written and Change returns that error as is.
func (st *Store) Change(fn func(*Settings) error) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	next := clone(st.cur)
	if err := fn(&next); err != nil {
		return err
	}
	if err := Validate(&next); err != nil {
		return fmt.Errorf("settings: refused: %w", err)
	}
	if err := write(st.path, next); err != nil {
		return err
	}
	st.cur = next
	return nil
}

func (st *Store) load() (Report, error) {
	data, err := os.ReadFile(st.path)
	if errors.Is(err, fs.ErrNotExist) {
		st.cur = Defaults()
		if err := write(st.path, st.cur); err != nil {
			return Report{}, err
		}
		return Report{Created: true}, nil
	}
	if err != nil {
		return Report{}, fmt.Errorf("settings: read %s: %w", st.path, err)
	}
	s, problem := Parse(data)
	if problem == nil {
		st.cur = s
		return Report{}, nil
	}
	kept, err := atomicfile.KeepAside(st.path)
	if err != nil {
		return Report{}, fmt.Errorf("settings: %w", err)
	}
	st.cur = Defaults()
	if err := write(st.path, st.cur); err != nil {
		return Report{}, err
	}
	return Report{Problem: problem, KeptAs: kept}, nil
}

// Parse decodes and validates a settings file. The error names the wrong
// field: "presets[0].chat_api: ..." for a bad value, the JSON path of a
// value of the wrong type, or the byte offset of a syntax error.
func Parse(data []byte) (Settings, error) {
	var s Settings
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&s); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te):
			return Settings{}, &FieldError{te.Field, fmt.Sprintf("has a %s where a %s belongs", te.Value, te.Type)}
		case errors.As(err, &se):
			return Settings{}, &FieldError{"(file)", fmt.Sprintf("not valid JSON at byte %d: %v", se.Offset, err)}
		default:
			return Settings{}, &FieldError{"(file)", err.Error()}
		}
	}
	if dec.More() {
		return Settings{}, &FieldError{"(file)", "extra data after the settings object"}
	}
	if err := Validate(&s); err != nil {
		return Settings{}, err
	}
	return s, nil
}

func write(path string, s Settings) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("settings: encode: %w", err)
	}
	if err := atomicfile.Write(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("settings: save: %w", err)
	}
	return nil
}

func clone(s Settings) Settings {
	c := s
	c.Presets = make([]Preset, len(s.Presets))
	for i, p := range s.Presets {
		if p.Window != nil {
			w := *p.Window
			p.Window = &w
		}
		p.Voice = p.Voice.clone()
		c.Presets[i] = p
	}
	return c
}
