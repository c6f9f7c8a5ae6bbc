package instance

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockFile is the held lock: an open file with an exclusive flock. The
// kernel drops the lock when the file is closed, by Close or by the
// process ending; the descriptor is close-on-exec, so window processes do
// not inherit it.
type lockFile struct{ f *os.File }

func lockDir(abs string) (*lockFile, error) {
	path := filepath.Join(abs, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("instance: open %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("instance: lock %s: %w", path, err)
	}
	return &lockFile{f: f}, nil
}

// describe replaces the file's contents (in place: the lock is on this
// inode, so it is never renamed over).
func (l *lockFile) describe(s string) {
	if l.f.Truncate(0) == nil {
		l.f.WriteAt([]byte(s), 0)
	}
}

func (l *lockFile) release() { l.f.Close() }

// locked reports whether some process holds dir's lock, by trying to take
// it for a moment.
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
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("instance: lock %s: %w", path, err)
	}
	return false, nil
}
