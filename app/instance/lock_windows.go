package instance

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// lockFile is the held lock: an open file with an exclusive LockFileEx
// lock on one byte far past its contents (Windows locks are mandatory, so
// the range is kept away from the text describe writes). Windows drops the
// lock when the handle closes, by Close or by the process ending; Go opens
// files non-inheritable, so window processes do not get it.
type lockFile struct{ f *os.File }

// The locked byte: offset 1<<32, length 1.
const lockOffsetHigh = 1

func lockDir(abs string) (*lockFile, error) {
	path := filepath.Join(abs, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("instance: open %s: %w", path, err)
	}
	ol := windows.Overlapped{OffsetHigh: lockOffsetHigh}
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("instance: lock %s: %w", path, err)
	}
	return &lockFile{f: f}, nil
}

func (l *lockFile) describe(s string) {
	if l.f.Truncate(0) == nil {
		l.f.WriteAt([]byte(s), 0)
	}
}

func (l *lockFile) release() { l.f.Close() }

func locked(abs string) (bool, error) {
	path := filepath.Join(abs, lockName)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("instance: open %s: %w", path, err)
	}
	defer f.Close()
	ol := windows.Overlapped{OffsetHigh: lockOffsetHigh}
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("instance: lock %s: %w", path, err)
	}
	windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
	return false, nil
}
