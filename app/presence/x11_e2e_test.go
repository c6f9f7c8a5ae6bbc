//go:build e2e

package presence_test

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"yui/app/presence"
	"yui/app/x11/xvfbtest"
)

const hangLimit = 60 * time.Second

func until(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangLimit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestX11IdleTypingAndFullscreenE2E: on a real X server the idle time
// grows while nobody types, a key press (xdotool, through XTEST as a real
// keyboard would) makes it typing, a window with _NET_WM_STATE_FULLSCREEN
// made active is fullscreen, and the screen saver forced on is locked.
func TestX11IdleTypingAndFullscreenE2E(t *testing.T) {
	display, err := xvfbtest.Start(t)
	if err != nil {
		t.Fatal(err)
	}
	s := presence.New(display)
	if _, ok := s.Idle(); !ok {
		t.Fatal("no idle time from the X server")
	}
	until(t, "the idle time to pass the typing window", func() bool {
		d, _ := s.Idle()
		return d > presence.TypingWindow && !s.Typing()
	})
	key := exec.Command("xdotool", "key", "a")
	key.Env = append(os.Environ(), "DISPLAY="+display)
	if out, err := key.CombinedOutput(); err != nil {
		t.Fatalf("xdotool: %v %s", err, out)
	}
	if d, _ := s.Idle(); d >= presence.TypingWindow || !s.Typing() {
		t.Fatalf("idle %v after a key press", d)
	}

	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	scr := xproto.Setup(c).DefaultScreen(c)
	atom := func(name string) xproto.Atom {
		r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
		if err != nil {
			t.Fatal(err)
		}
		return r.Atom
	}
	set := func(w xproto.Window, prop, typ xproto.Atom, format byte, data []byte) {
		n := uint32(len(data)) / uint32(format/8)
		if err := xproto.ChangePropertyChecked(c, xproto.PropModeReplace, w, prop, typ, format, n, data).Check(); err != nil {
			t.Fatal(err)
		}
	}
	window := func() xproto.Window {
		wid, _ := xproto.NewWindowId(c)
		if err := xproto.CreateWindowChecked(c, scr.RootDepth, wid, scr.Root, 0, 0, 100, 100, 0,
			xproto.WindowClassInputOutput, scr.RootVisual, 0, nil).Check(); err != nil {
			t.Fatal(err)
		}
		set(wid, xproto.AtomWmClass, xproto.AtomString, 8, []byte("mpv\x00mpv\x00"))
		xproto.MapWindow(c, wid)
		return wid
	}
	activate := func(w xproto.Window) {
		b := make([]byte, 4)
		xgb.Put32(b, uint32(w))
		set(scr.Root, atom("_NET_ACTIVE_WINDOW"), xproto.AtomWindow, 32, b)
	}
	plain, film := window(), window()
	b := make([]byte, 4)
	xgb.Put32(b, uint32(atom("_NET_WM_STATE_FULLSCREEN")))
	set(film, atom("_NET_WM_STATE"), xproto.AtomAtom, 32, b)
	if s.Fullscreen() {
		t.Fatal("fullscreen with no active window")
	}
	activate(plain)
	if s.Fullscreen() {
		t.Fatal("a plain window is fullscreen")
	}
	activate(film)
	if !s.Fullscreen() {
		t.Fatal("a _NET_WM_STATE_FULLSCREEN window is not")
	}

	// The screen saver (what lockers use) on is locked; reset, not.
	if s.Locked() {
		t.Fatal("locked before the screen saver")
	}
	if err := xproto.ForceScreenSaverChecked(c, xproto.ScreenSaverActive).Check(); err != nil {
		t.Fatal(err)
	}
	if !s.Locked() {
		t.Fatal("the screen saver on is not locked")
	}
	if err := xproto.ForceScreenSaverChecked(c, xproto.ScreenSaverReset).Check(); err != nil {
		t.Fatal(err)
	}
	if s.Locked() {
		t.Fatal("still locked after a reset")
	}
}
