package applog

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// DailyFile is an io.Writer appending to prefix-YYYY-MM-DD.log in dir,
// switching files when the local date of the clock changes. Each Write is
// appended whole, so one slog record stays one line.
type DailyFile struct {
	dir, prefix string
	now         func() time.Time

	mu   sync.Mutex
	day  string
	file *os.File
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
	if d.file == nil || day != d.day {
		if d.file != nil {
			d.file.Close()
			d.file = nil
		}
		if err := os.MkdirAll(d.dir, 0o700); err != nil {
			return 0, fmt.Errorf("applog: create %s: %w", d.dir, err)
		}
		f, err := os.OpenFile(d.Path(now), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return 0, fmt.Errorf("applog: open: %w", err)
		}
		d.file, d.day = f, day
	}
	return d.file.Write(p)
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
