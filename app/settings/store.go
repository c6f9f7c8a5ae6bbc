package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

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
	// Tightened is the mode the file had when it was found readable or
	// writable by others (it holds keys) and made 0600; zero otherwise.
	Tightened fs.FileMode
	// Swept names the temporary files a crash had left in the directory,
	// removed at open (atomicfile.Sweep).
	Swept []string
}

// MaxFileBytes is the largest settings file Open reads: a bigger one is
// refused as unusable (kept aside, defaults used), never loaded.
const MaxFileBytes = 1 << 20

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
//
// Before reading, it removes the temporary files a crash left in dir and
// makes a settings file that others may read or write 0600 (Report says
// what it did). A symbolic link at the file's place is followed, for
// reading and for every later write.
func Open(dir string) (*Store, Report, error) {
	st := &Store{path: filepath.Join(dir, FileName)}
	swept, err := atomicfile.Sweep(dir, time.Now())
	if err != nil {
		return nil, Report{}, fmt.Errorf("settings: %w", err)
	}
	tightened, err := tighten(st.path)
	if err != nil {
		return nil, Report{}, err
	}
	rep, err := st.load()
	rep.Swept, rep.Tightened = swept, tightened
	return st, rep, err
}

// tighten makes the file 0600 when others may read or write it, and
// returns the mode it had then (zero when it was fine or is missing).
func tighten(path string) (fs.FileMode, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("settings: stat %s: %w", path, err)
	}
	mode := fi.Mode().Perm()
	if mode&0o077 == 0 {
		return 0, nil
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return 0, fmt.Errorf("settings: %s is mode %v (others can read the keys in it) and could not be made 0600: %w", path, mode, err)
	}
	return mode, nil
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
	data, err := readCapped(st.path)
	var tooBig *tooBigError
	if errors.As(err, &tooBig) {
		return st.setAside(&FieldError{Field: "(file)", Reason: tooBig.Error()})
	}
	if errors.Is(err, fs.ErrNotExist) {
		st.cur = Defaults()
		if err := write(st.path, st.cur); err != nil {
			return Report{}, err
		}
		return Report{Created: true}, nil
	}
	if err != nil {
		return Report{}, err
	}
	s, problem := Parse(data)
	if problem == nil {
		st.cur = s
		return Report{}, nil
	}
	return st.setAside(problem)
}

// setAside keeps an unusable file aside and starts from defaults.
func (st *Store) setAside(problem error) (Report, error) {
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

// tooBigError is a settings file over MaxFileBytes.
type tooBigError struct{ size int64 }

func (e *tooBigError) Error() string {
	return fmt.Sprintf("the file is %d bytes; a settings file may be at most %d bytes (1 MiB)", e.size, MaxFileBytes)
}

// readCapped reads the file, refusing one over MaxFileBytes without
// reading it whole.
func readCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("settings: read %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("settings: read %s: %w", path, err)
	}
	if len(data) > MaxFileBytes {
		size := int64(len(data))
		if fi, err := f.Stat(); err == nil {
			size = fi.Size()
		}
		return nil, &tooBigError{size: size}
	}
	return data, nil
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
			return Settings{}, &FieldError{Field: te.Field, Reason: fmt.Sprintf("has a %s where a %s belongs", te.Value, te.Type)}
		case errors.As(err, &se):
			return Settings{}, &FieldError{Field: "(file)", Reason: fmt.Sprintf("not valid JSON at byte %d: %v", se.Offset, err)}
		default:
			return Settings{}, &FieldError{Field: "(file)", Reason: err.Error()}
		}
	}
	if dec.More() {
		return Settings{}, &FieldError{Field: "(file)", Reason: "extra data after the settings object"}
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
		p.MCPServers, p.MCPGrants = cloneMCP(p.MCPServers, p.MCPGrants)
		c.Presets[i] = p
	}
	return c
}

// Log writes what Open did to the file beyond loading it: a mode made 0600
// (settings_mode_tightened) and crash-left temporary files removed
// (settings_temp_removed). The caller logs Created and Problem itself.
func (r Report) Log(lg *slog.Logger, path string) {
	if r.Tightened != 0 {
		lg.Warn("settings_mode_tightened", "path", path, "was", fmt.Sprintf("%#o", uint32(r.Tightened)), "now", "0600")
	}
	if len(r.Swept) > 0 {
		lg.Info("settings_temp_removed", "dir", filepath.Dir(path), "files", r.Swept)
	}
}
