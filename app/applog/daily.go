package applog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Size rotation defaults of a DailyFile.
const (
	// DefaultMaxBytes is the size a day's file may reach before it is
	// rotated.
	DefaultMaxBytes = 10 << 20
	// DefaultKeep is how many rotated files of a day are kept (.1 newest).
	DefaultKeep = 3
)

// DailyFile is an io.Writer appending to prefix-YYYY-MM-DD.log in dir,
// switching files when the local date of the clock changes. Each Write is
// appended whole, so one slog record stays one line.
//
// A day's file is also rotated by size: a write that would take it past
// MaxBytes first renames it to .log.1 (an older .1 becomes .2, and so on,
// keeping Keep of them; the oldest is deleted), so one day's log takes at
// most about (Keep+1) × MaxBytes.
type DailyFile struct {
	dir, prefix string
	now         func() time.Time
	// MaxBytes and Keep are the size rotation; set them before the first
	// Write. Zero values mean DefaultMaxBytes and DefaultKeep.
	MaxBytes int64
	Keep     int

	mu   sync.Mutex
	day  string
	file *os.File
	size int64
}

// NewDailyFile returns a DailyFile; the directory is created on first write.
// now may be nil for time.Now.
func NewDailyFile(dir, prefix string, now func() time.Time) *DailyFile {
	if now == nil {
		now = time.Now
	}
	return &DailyFile{dir: dir, prefix: prefix, now: now}
}

// Path returns the file the next write on the given day goes to.
func (d *DailyFile) Path(day time.Time) string {
	return filepath.Join(d.dir, d.prefix+"-"+day.Format("2006-01-02")+".log")
}

func (d *DailyFile) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	day := now.Format("2006-01-02")
	if d.file != nil && day != d.day {
		d.file.Close()
		d.file = nil
	}
	if d.file == nil {
		if err := d.open(now, day); err != nil {
			return 0, err
		}
	}
	if d.size > 0 && d.size+int64(len(p)) > d.maxBytes() {
		if err := d.rotate(d.Path(now)); err != nil {
			return 0, err
		}
		if err := d.open(now, day); err != nil {
			return 0, err
		}
	}
	n, err := d.file.Write(p)
	d.size += int64(n)
	return n, err
}

func (d *DailyFile) maxBytes() int64 {
	if d.MaxBytes > 0 {
		return d.MaxBytes
	}
	return DefaultMaxBytes
}

func (d *DailyFile) keep() int {
	if d.Keep > 0 {
		return d.Keep
	}
	return DefaultKeep
}

// open opens the day's file for appending and reads its size.
func (d *DailyFile) open(now time.Time, day string) error {
	if err := os.MkdirAll(d.dir, 0o700); err != nil {
		return fmt.Errorf("applog: create %s: %w", d.dir, err)
	}
	f, err := os.OpenFile(d.Path(now), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("applog: open: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("applog: stat %s: %w", d.Path(now), err)
	}
	d.file, d.day, d.size = f, day, fi.Size()
	return nil
}

// rotate closes the current file and shifts path → path.1 → … → path.Keep.
func (d *DailyFile) rotate(path string) error {
	if d.file != nil {
		d.file.Close()
		d.file = nil
	}
	k := d.keep()
	if err := os.Remove(fmt.Sprintf("%s.%d", path, k)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("applog: rotate %s: %w", path, err)
	}
	for i := k - 1; i >= 1; i-- {
		from := fmt.Sprintf("%s.%d", path, i)
		if err := os.Rename(from, fmt.Sprintf("%s.%d", path, i+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("applog: rotate %s: %w", from, err)
		}
	}
	if err := os.Rename(path, path+".1"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("applog: rotate %s: %w", path, err)
	}
	d.size = 0
	return nil
}

// Close closes the current file; a later Write opens it again.
func (d *DailyFile) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.file == nil {
		return nil
	}
	err := d.file.Close()
	d.file = nil
	return err
}
