// Package xvfbtest starts private X servers (Xvfb) for end-to-end tests
// of the packages that talk to X11. It is imported by tests only.
package xvfbtest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// StartLimit bounds the wait for Xvfb to report its display. Xvfb writes
// the display number once it accepts connections, so the wait ends then;
// the limit only stops a hung start (a cold start on a busy machine takes
// seconds, not minutes).
const StartLimit = 2 * time.Minute

// ErrNoXvfb means the Xvfb binary could not be started (make deps
// installs it); callers decide whether that skips or fails the test.
var ErrNoXvfb = errors.New("xvfbtest: Xvfb could not be started")

// Start runs a private Xvfb (one 1280×800×24 screen, no TCP) for t and
// returns its display name (":N"); the server is killed when t ends. It
// returns an error wrapping ErrNoXvfb when the binary cannot start, and
// fails t when the server starts but never reports its display.
func Start(t testing.TB) (string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		w.Close()
		return "", fmt.Errorf("%w: %v", ErrNoXvfb, err)
	}
	w.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case n := <-line:
		if n == "" {
			t.Fatal("xvfbtest: Xvfb wrote no display number")
		}
		return ":" + n, nil
	case <-time.After(StartLimit):
		t.Fatalf("xvfbtest: Xvfb did not report its display within %v", StartLimit)
	}
	return "", nil
}
