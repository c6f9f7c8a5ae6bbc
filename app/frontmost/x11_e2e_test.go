//go:build e2e && linux

package frontmost_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"yui/app/frontmost"
	"yui/app/x11/xvfbtest"
)

// TestX11TrackerFollowsActiveWindowE2E plays the window manager on a real
// X server: it sets _NET_ACTIVE_WINDOW on the root, and the tracker (on
// its own connections) follows by property events.
func TestX11TrackerFollowsActiveWindowE2E(t *testing.T) {
	display, err := xvfbtest.Start(t)
	if err != nil {
		t.Fatal(err)
	}
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	root := xproto.Setup(c).DefaultScreen(c).Root
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
	window := func(class, title string) xproto.Window {
		wid, _ := xproto.NewWindowId(c)
		if err := xproto.CreateWindowChecked(c, scr.RootDepth, wid, root, 0, 0, 100, 100, 0,
			xproto.WindowClassInputOutput, scr.RootVisual, 0, nil).Check(); err != nil {
			t.Fatal(err)
		}
		set(wid, xproto.AtomWmClass, xproto.AtomString, 8, []byte(strings.ToLower(class)+"\x00"+class+"\x00"))
		set(wid, atom("_NET_WM_NAME"), atom("UTF8_STRING"), 8, []byte(title))
		xproto.MapWindow(c, wid)
		return wid
	}
	activate := func(w xproto.Window) {
		b := make([]byte, 4)
		xgb.Put32(b, uint32(w))
		set(root, atom("_NET_ACTIVE_WINDOW"), xproto.AtomWindow, 32, b)
	}
	editor := window("Gedit", "notes.txt")
	pet := window("Yui", "Yui — Yui")
	term := window("XTerm", "bash")

	src := &frontmost.X11{Display: display}
	defer src.Close()
	tr := frontmost.New(src, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { tr.Run(ctx); close(done) }()

	// Each wait ends when the tracker has followed; the limit only stops
	// a hang.
	const hangLimit = 60 * time.Second
	wait := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(hangLimit)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; current %+v", what, tr.Current())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if tr.Current() != nil {
		t.Fatal("frontmost known with no active window")
	}
	activate(editor)
	wait("the editor", func() bool { f := tr.Current(); return f != nil && f.App == "Gedit" && f.Title == "notes.txt" })
	since := tr.Current().Since
	// Current reads the active window itself: the property is set (a
	// checked request), so it sees Yui's window active and keeps the editor.
	activate(pet)
	if f := tr.Current(); f.App != "Gedit" || !f.Since.Equal(since) {
		t.Fatalf("Yui's own window became frontmost: %+v", f)
	}
	activate(term)
	wait("the terminal", func() bool { f := tr.Current(); return f != nil && f.App == "XTerm" })
	cancel()
	select {
	case <-done:
	case <-time.After(hangLimit):
		t.Fatal("Run did not return after its context ended")
	}
}
