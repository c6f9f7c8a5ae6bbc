//go:build e2e && linux

package x11_test

import (
	"context"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"

	"yui/app/x11"
)

// quiet is how long the test watches for motion that should not come
// while the pointer is still.
const quiet = 500 * time.Millisecond

// TestPointerMotionOutsideHerWindowE2E: XInput2 raw motion from the root
// arrives for every move (XTEST motion, over no window of ours),
// Display.Pointer reads the position, and nothing arrives while the
// pointer is still.
func TestPointerMotionOutsideHerWindowE2E(t *testing.T) {
	display := startXvfb(t)
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := xtest.Init(c); err != nil {
		t.Fatal(err)
	}
	root := xproto.Setup(c).DefaultScreen(c).Root
	d, err := x11.Open(display)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithCancel(t.Context())
	moved := make(chan struct{}, 64)
	done := make(chan error, 1)
	ready := make(chan struct{})
	go func() {
		close(ready)
		done <- x11.WatchPointerMotion(ctx, display, func() { moved <- struct{}{} })
	}()
	<-ready
	move := func(x, y int) {
		t.Helper()
		// XTEST moves the pointer as a device would (xdotool's
		// mousemove warps it, which makes no raw motion).
		if err := xtest.FakeInputChecked(c, xproto.MotionNotify, 0, 0, root, int16(x), int16(y), 0).Check(); err != nil {
			t.Fatalf("XTEST motion: %v", err)
		}
	}
	// The selection may not be in place yet: move until motion arrives.
	deadline := time.After(hangLimit)
	for i := 0; ; i++ {
		move(100+i%50, 200)
		select {
		case <-moved:
		case <-time.After(200 * time.Millisecond):
			continue
		case err := <-done:
			t.Fatalf("WatchPointerMotion: %v", err)
		case <-deadline:
			t.Fatal("no pointer motion arrived")
		}
		break
	}
	move(700, 450)
	var x, y int
	for x != 700 || y != 450 { // the position follows the motion
		select {
		case <-moved:
		case <-deadline:
			t.Fatalf("pointer at %d,%d, want 700,450", x, y)
		}
		if x, y, err = d.Pointer(); err != nil {
			t.Fatal(err)
		}
	}
	for len(moved) > 0 {
		<-moved
	}
	select {
	case <-moved:
		t.Fatal("motion reported while the pointer is still")
	case <-time.After(quiet):
	}
	move(20, 30)
	select {
	case <-moved:
	case <-deadline:
		t.Fatal("no motion after the pointer moved again")
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("WatchPointerMotion ended with %v, want context.Canceled", err)
	}
}
