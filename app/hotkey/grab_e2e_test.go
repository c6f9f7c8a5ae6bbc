//go:build e2e && linux

package hotkey_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"

	"yui/app/hotkey"
	"yui/app/x11/xvfbtest"
)

// hangLimit bounds the wait for a press; it ends at the press.
const hangLimit = 60 * time.Second

// The X11 grab under a private Xvfb: xdotool's Ctrl+Alt+Y reaches the
// listener (with Num Lock on too), a second grab of the same combination
// is ErrTaken, and ending the context releases it for someone else.
func TestE2EX11GrabHearsTheShortcut(t *testing.T) {
	display, err := xvfbtest.Start(t)
	if err != nil {
		t.Skip(err)
	}
	c, _ := hotkey.Parse("Ctrl+Alt+Y")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pressed := make(chan struct{}, 4)
	g := hotkey.X11{Display: display}
	if err := g.Listen(ctx, c, func() { pressed <- struct{}{} }); err != nil {
		t.Fatal(err)
	}
	xdotool := func(args ...string) {
		t.Helper()
		cmd := exec.Command("xdotool", args...)
		cmd.Env = append(os.Environ(), "DISPLAY="+display, "XAUTHORITY=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("xdotool %v: %v %s", args, err, out)
		}
	}
	await := func(what string) {
		t.Helper()
		select {
		case <-pressed:
		case <-time.After(hangLimit):
			t.Fatalf("no press within %v: %s", hangLimit, what)
		}
	}
	xdotool("key", "ctrl+alt+y")
	await("ctrl+alt+y")
	xdotool("key", "Num_Lock")
	xdotool("key", "ctrl+alt+y")
	await("ctrl+alt+y with Num Lock on")
	xdotool("key", "Num_Lock")

	// Someone else holds it: a second grab is refused.
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	if err := g.Listen(ctx2, c, func() {}); !errors.Is(err, hotkey.ErrTaken) {
		t.Fatalf("second grab: %v, want ErrTaken", err)
	}
	// Released: another client can take it (the first connection is
	// closed when its context ends; the grab goes with it).
	cancel()
	deadline := time.Now().Add(hangLimit)
	for {
		err := g.Listen(ctx2, c, func() {})
		if err == nil {
			break
		}
		if !errors.Is(err, hotkey.ErrTaken) || time.Now().After(deadline) {
			t.Fatalf("after release: %v", err)
		}
		time.Sleep(20 * time.Millisecond) // the server drops the closed connection's grabs
	}
}
