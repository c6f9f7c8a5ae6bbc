//go:build e2e && linux

package gaze_test

import (
	"image"
	"sync"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"

	"yui/app/core/gaze"
	"yui/app/view"
	"yui/app/x11/xvfbtest"
)

// TestSystemPointerReachesHerPageE2E: on a real X server the system
// source and a Follower report a device's motion near her window, in her
// window's pixels, and Near=false when it leaves.
func TestSystemPointerReachesHerPageE2E(t *testing.T) {
	display, err := xvfbtest.Start(t)
	if err != nil {
		t.Skip(err)
	}
	t.Setenv("DISPLAY", display)
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := xtest.Init(c); err != nil {
		t.Fatal(err)
	}
	root := xproto.Setup(c).DefaultScreen(c).Root
	move := func(x, y int) {
		t.Helper()
		if err := xtest.FakeInputChecked(c, xproto.MotionNotify, 0, 0, root, int16(x), int16(y), 0).Check(); err != nil {
			t.Fatal(err)
		}
	}
	src := gaze.System()
	if src == nil {
		t.Fatal("no system pointer source with $DISPLAY set")
	}
	var mu sync.Mutex
	var sent []view.Pointer
	got := make(chan struct{}, 1)
	f := gaze.New(gaze.Config{Watch: src.Watch, Pointer: src.Position,
		Window: func() (image.Rectangle, bool) { return image.Rect(600, 300, 900, 720), true },
		Send: func(p view.Pointer) {
			mu.Lock()
			sent = append(sent, p)
			mu.Unlock()
			select {
			case got <- struct{}{}:
			default:
			}
		}})
	done := make(chan error, 1)
	go func() { done <- f.Run(t.Context()) }()
	await := func(what string, want view.Pointer, step func()) {
		t.Helper()
		limit := time.After(time.Minute)
		for {
			step() // again until it arrives: the selection may not be in place yet
			select {
			case <-got:
			case <-time.After(200 * time.Millisecond):
				continue
			case err := <-done:
				t.Fatalf("Run ended: %v", err)
			case <-limit:
				t.Fatalf("%s: sent %+v", what, sent)
			}
			mu.Lock()
			last := sent[len(sent)-1]
			mu.Unlock()
			if last == want {
				return
			}
		}
	}
	i := 0
	await("near her", view.Pointer{X: -50, Y: 100, Near: true}, func() { i++; move(550+i%2, 400); move(550, 400) })
	await("gone", view.Pointer{}, func() { move(10, 10) })
}
