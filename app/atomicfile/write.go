package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// testHookWritten, when set by a test, sees the temporary file once the
// data is on disk, before it gets its final mode.
var testHookWritten func(tmp string)

// tempPattern is the name of Write's temporary file next to base.
func tempPattern(base string) string { return "." + base + ".tmp-*" }

// Write replaces the file at path with data, atomically, with permission
// bits perm. Missing parent directories are created with mode 0700. The
// temporary file is 0600 until the data is on disk; it gets perm just
// before it is renamed over the target. When path is a symbolic link the
// write goes through it: the file it points to is replaced and the link
// stays; a link to a missing file is refused. On error the previous
// content of path is left untouched and no temporary file is left behind.
func Write(path string, data []byte, perm fs.FileMode) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("atomicfile: create dir %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, tempPattern(filepath.Base(target)))
	if err != nil {
		return fmt.Errorf("atomicfile: temp file in %s: %w", dir, err)
	}
	tmpName := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("atomicfile: chmod %s: %w", tmpName, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("atomicfile: write %s: %w", tmpName, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("atomicfile: sync %s: %w", tmpName, err)
	}
	if testHookWritten != nil {
		testHookWritten(tmpName)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("atomicfile: chmod %s: %w", tmpName, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("atomicfile: close %s: %w", tmpName, err)
	}
	if err := os.Rename(tmpName, target); err != nil {
		return fmt.Errorf("atomicfile: rename to %s: %w", target, err)
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// resolve returns the file a write of path replaces: path itself, or the
// file a symbolic link at path points to (through any chain of links).
func resolve(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("atomicfile: %s is a symbolic link to a file that does not exist; not replacing the link", path)
		}
		return "", fmt.Errorf("atomicfile: follow the symbolic link %s: %w", path, err)
	}
	return target, nil
}
