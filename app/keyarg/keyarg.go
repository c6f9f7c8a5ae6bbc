package keyarg

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// EnvVar is the environment variable a key may come from.
const EnvVar = "YUI_KEY"

// MaxFileBytes bounds a key file: a key is a line, not a document.
const MaxFileBytes = 64 << 10

// Flags are the raw flag values of one command.
type Flags struct {
	Key     string // --key (discouraged)
	KeyFile string // --key-file
}

// Source says where a key came from.
type Source string

// Sources of a key.
const (
	None Source = ""
	Flag Source = "--key"
	File Source = "--key-file"
	Env  Source = EnvVar
)

// ErrBoth is the usage error of --key and --key-file together.
var ErrBoth = errors.New("keyarg: give --key-file or --key, not both")

// Resolve returns the key and where it came from, writing warnings (for
// --key, and for a key file other users can read) to warn. getenv reads
// the environment (os.Getenv in a real run). An unreadable, oversized or
// empty key file is an error naming the file.
func Resolve(f Flags, getenv func(string) string, warn io.Writer) (string, Source, error) {
	switch {
	case f.Key != "" && f.KeyFile != "":
		return "", None, ErrBoth
	case f.Key != "":
		fmt.Fprintln(warn, "warning: --key puts the key on the command line, where other local users can read it; use --key-file FILE or the YUI_KEY environment variable")
		return f.Key, Flag, nil
	case f.KeyFile != "":
		k, err := readFile(f.KeyFile, warn)
		if err != nil {
			return "", None, err
		}
		return k, File, nil
	}
	if k := strings.TrimSpace(getenv(EnvVar)); k != "" {
		return k, Env, nil
	}
	return "", None, nil
}

func readFile(path string, warn io.Writer) (string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("keyarg: key file: %w", err)
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return "", fmt.Errorf("keyarg: key file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("keyarg: key file %s is not a regular file", path)
	}
	b, err := io.ReadAll(io.LimitReader(fh, MaxFileBytes+1))
	if err != nil {
		return "", fmt.Errorf("keyarg: key file %s: %w", path, err)
	}
	if len(b) > MaxFileBytes {
		return "", fmt.Errorf("keyarg: key file %s is over %d bytes; it should hold the key alone", path, MaxFileBytes)
	}
	k := strings.TrimSpace(string(b))
	if k == "" {
		return "", fmt.Errorf("keyarg: key file %s is empty", path)
	}
	if strings.ContainsAny(k, "\r\n") {
		return "", fmt.Errorf("keyarg: key file %s holds more than one line; it should hold the key alone", path)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		fmt.Fprintf(warn, "warning: key file %s is readable by other users (mode %#o); chmod 600 it\n", path, uint32(fi.Mode().Perm()))
	}
	return k, nil
}
