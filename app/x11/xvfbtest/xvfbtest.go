//go:build e2e

// Package xvfbtest starts private X servers (Xvfb) for end-to-end tests
// of the packages that talk to X11. It is imported by the e2e tests only
// and built with them (build tag e2e).
package xvfbtest

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/randr"
	"github.com/jezek/xgb/xproto"
)

// StartLimit bounds the wait for Xvfb to report its display. Xvfb writes
// the display number once it accepts connections, so the wait ends then;
// the limit only stops a hung start (a cold start on a busy machine takes
// seconds, not minutes).
const StartLimit = 2 * time.Minute

// attempts is how many display numbers Start tries.
const attempts = 8

// ErrNoXvfb means the Xvfb binary could not be started (make deps
// installs it); callers decide whether that skips or fails the test.
var ErrNoXvfb = errors.New("xvfbtest: Xvfb could not be started")

// Start runs a private Xvfb (one 1280×800×24 screen, no TCP, no reset
// when the last client leaves) for t and
// returns its display name (":N"); the server is killed when t ends. It
// returns an error wrapping ErrNoXvfb when the binary cannot start, and
// fails t when no server reports its display.
//
// The display number is picked at random from a high range, not left to
// -displayfd's "lowest free": X servers that several test processes on
// one machine start at once would race for the same lowest number (and
// its stale lock file). A number already taken makes that Xvfb exit at
// once; Start then tries another.
func Start(t testing.TB) (string, error) {
	t.Helper()
	return StartScreens(t, "1280x800")
}

// StartScreens is Start with several monitors of the given sizes
// ("1280x800") side by side, left to right, top-aligned: one X screen as
// large as all of them, split into RandR 1.5 monitors (the first is the
// primary), which is what Xinerama queries and GTK report. (Xvfb's own
// +xinerama puts every screen at 0,0.)
func StartScreens(t testing.TB, sizes ...string) (string, error) {
	t.Helper()
	var mons []image.Rectangle
	w, h := 0, 0
	for _, sz := range sizes {
		var mw, mh int
		if _, err := fmt.Sscanf(sz, "%dx%d", &mw, &mh); err != nil {
			t.Fatalf("xvfbtest: screen size %q: %v", sz, err)
		}
		mons = append(mons, image.Rect(w, 0, w+mw, mh))
		w, h = w+mw, max(h, mh)
	}
	for range attempts {
		n := 100 + rand.IntN(30000)
		name, err := try(t, n, fmt.Sprintf("%dx%d", w, h))
		if err == nil && name != "" && len(mons) > 1 {
			if err := setMonitors(name, mons); err != nil {
				t.Fatalf("xvfbtest: monitors on %s: %v", name, err)
			}
		}
		if err != nil || name != "" {
			return name, err
		}
	}
	t.Fatalf("xvfbtest: %d Xvfb servers exited before reporting a display", attempts)
	return "", nil
}

// try starts Xvfb on display n. It returns the display name once the
// server reports it (written to fd 3 when it accepts connections), "" when
// the server exited first (the display was taken), or ErrNoXvfb.
func try(t testing.TB, n int, size string) (string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// -noreset: by default an X server resets when its last client
	// disconnects, dropping every connection being made meanwhile (a
	// probe like xdpyinfo leaving, then the test connecting, broke that
	// way).
	cmd := exec.Command("Xvfb", fmt.Sprintf(":%d", n), "-displayfd", "3", "-screen", "0", size+"x24", "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		w.Close()
		return "", fmt.Errorf("%w: %v", ErrNoXvfb, err)
	}
	w.Close()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	line := make(chan string, 1)
	go func() {
		// EOF (an empty line) when the server exits without reporting.
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case got := <-line:
		if got == "" {
			<-exited
			return "", nil
		}
		if got != fmt.Sprint(n) {
			cmd.Process.Kill()
			<-exited
			t.Fatalf("xvfbtest: Xvfb asked for :%d reported :%s", n, got)
		}
		t.Cleanup(func() { cmd.Process.Kill(); <-exited })
		return ":" + got, nil
	case <-time.After(StartLimit):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("xvfbtest: Xvfb did not report its display within %v", StartLimit)
	}
	return "", nil
}

// setMonitors splits display's screen into RandR 1.5 monitors: the first
// takes over the screen's output (and is primary), the others have none.
func setMonitors(display string, mons []image.Rectangle) error {
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := randr.Init(c); err != nil {
		return err
	}
	root := xproto.Setup(c).DefaultScreen(c).Root
	res, err := randr.GetScreenResourcesCurrent(c, root).Reply()
	if err != nil {
		return err
	}
	for i, m := range mons {
		name := fmt.Sprintf("YUI-%d", i)
		a, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
		if err != nil {
			return err
		}
		info := randr.MonitorInfo{Name: a.Atom, X: int16(m.Min.X), Y: int16(m.Min.Y), Width: uint16(m.Dx()), Height: uint16(m.Dy()),
			WidthInMillimeters: uint32(m.Dx() * 254 / 960), HeightInMillimeters: uint32(m.Dy() * 254 / 960)}
		if i == 0 && len(res.Outputs) > 0 {
			info.Primary, info.NOutput, info.Outputs = true, 1, res.Outputs[:1]
		}
		if err := randr.SetMonitorChecked(c, root, info).Check(); err != nil {
			return fmt.Errorf("set monitor %v: %w", m, err)
		}
	}
	return nil
}
