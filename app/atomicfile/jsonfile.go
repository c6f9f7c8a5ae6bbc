package atomicfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
)

// JSONFile is the file of a store that holds one JSON value of type T in
// memory and keeps the file in step with it (the previous-turn record,
// the delegation history):
//
//   - a missing file reads as no value;
//   - a corrupt one (not JSON, or refused by Check) is kept aside
//     (KeepAside), logged as <Event>.corrupt, and reads as no value;
//   - any other read error is returned, and from then on the file is not
//     written until a later read of it succeeds: a file whose content
//     memory never held is never saved over (Writable).
//
// Writes are atomic and 0600. A JSONFile is not safe for concurrent use:
// its store calls it under its own lock.
type JSONFile[T any] struct {
	Path string
	// Pkg and What name the value in errors ("clientctx",
	// "previous-turn record": "clientctx: read previous-turn record …").
	Pkg, What string
	// Event prefixes the log events ("previous_turn": previous_turn.corrupt,
	// previous_turn.not_saved).
	Event string
	Log   *slog.Logger
	// Check refuses a value that decoded but cannot be used (the file is
	// then corrupt); nil accepts every value.
	Check func(*T) error
	// ReadFile reads the file; nil is os.ReadFile (tests make reads fail).
	ReadFile func(string) ([]byte, error)

	unread error // the last read's error, other than missing or corrupt
}

// Load reads the file. found is false for a missing or corrupt file; err
// is a read that failed otherwise, which Writable then remembers. A read
// that succeeds forgets an earlier failure.
func (f *JSONFile[T]) Load() (v T, found bool, err error) {
	v, found, err = f.read()
	f.unread = err
	return v, found, err
}

// Unreadable is the error of the last read, when it failed for a reason
// other than a missing or corrupt file (nil otherwise).
func (f *JSONFile[T]) Unreadable() error { return f.unread }

// Writable reports whether the file may be written: after a failed read
// it reads again, and refuses (logged as <Event>.not_saved) while that
// still fails. When it read again, it returns what the file holds, for the
// store to merge before it saves.
func (f *JSONFile[T]) Writable() (v T, found bool, err error) {
	if f.unread == nil {
		return v, false, nil
	}
	v, found, err = f.read()
	if err != nil {
		f.Log.Warn(f.Event+".not_saved", "path", f.Path, "err", err.Error())
		return v, false, fmt.Errorf("%s: %s not saved: the file could not be read: %w", f.Pkg, f.What, err)
	}
	f.unread = nil
	return v, found, nil
}

// Save writes v. Call Writable first.
func (f *JSONFile[T]) Save(v T) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: encode %s: %w", f.Pkg, f.What, err)
	}
	if err := Write(f.Path, data, 0o600); err != nil {
		return fmt.Errorf("%s: save %s: %w", f.Pkg, f.What, err)
	}
	return nil
}

// Remove removes the file; a missing file is no error. Call Writable
// first.
func (f *JSONFile[T]) Remove() error {
	if err := os.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: clear %s: %w", f.Pkg, f.What, err)
	}
	return nil
}

func (f *JSONFile[T]) read() (v T, found bool, err error) {
	read := f.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	data, err := read(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return v, false, nil
	}
	if err != nil {
		return v, false, fmt.Errorf("%s: read %s %s: %w", f.Pkg, f.What, f.Path, err)
	}
	if err := json.Unmarshal(data, &v); err != nil {
		f.keepAside(err)
		var zero T
		return zero, false, nil
	}
	if f.Check != nil {
		if err := f.Check(&v); err != nil {
			f.keepAside(err)
			var zero T
			return zero, false, nil
		}
	}
	return v, true, nil
}

func (f *JSONFile[T]) keepAside(cause error) {
	bad, err := KeepAside(f.Path)
	if err != nil {
		f.Log.Warn(f.Event+".corrupt", "path", f.Path, "err", cause.Error(), "set_aside_err", err.Error())
		return
	}
	f.Log.Warn(f.Event+".corrupt", "path", f.Path, "err", cause.Error(), "kept_as", bad)
}
