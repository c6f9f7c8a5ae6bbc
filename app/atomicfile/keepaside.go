package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// KeepAside renames a file that could not be used to path.bad, or to the
// first free path.bad.N, so the user's data is kept and a second bad file
// never overwrites the first. The kept file is made 0600 (it may hold a
// key). It returns the new name.
func KeepAside(path string) (string, error) {
	bad := path + ".bad"
	for n := 1; ; n++ {
		if _, err := os.Lstat(bad); errors.Is(err, fs.ErrNotExist) {
			break
		}
		bad = fmt.Sprintf("%s.bad.%d", path, n)
	}
	if err := os.Rename(path, bad); err != nil {
		return "", fmt.Errorf("atomicfile: keep %s aside: %w", path, err)
	}
	if err := os.Chmod(bad, 0o600); err != nil {
		return bad, fmt.Errorf("atomicfile: kept %s aside as %s but could not make it 0600: %w", path, bad, err)
	}
	return bad, nil
}
