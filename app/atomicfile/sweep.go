package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// StaleAfter is how old a temporary file of Write must be before Sweep
// takes it for one a crash left behind: a write in progress holds its
// temporary file for milliseconds, so another process writing in the
// same directory keeps its own.
const StaleAfter = time.Minute

// Sweep removes the temporary files Write left in dir when a process
// ended between creating one and renaming it (".NAME.tmp-N", regular
// files older than StaleAfter by now). It returns the names it removed;
// a directory that does not exist holds none.
func Sweep(dir string, now time.Time) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("atomicfile: sweep %s: %w", dir, err)
	}
	var removed []string
	var errs []error
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, ".") || !strings.Contains(name, ".tmp-") {
			continue
		}
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) < StaleAfter {
			continue
		}
		p := filepath.Join(dir, name)
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("atomicfile: sweep %s: %w", p, err))
			continue
		}
		removed = append(removed, name)
	}
	return removed, errors.Join(errs...)
}
