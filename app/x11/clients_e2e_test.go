//go:build e2e && linux

package x11_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"yui/app/x11"
	"yui/app/x11/xvfbtest"
)

// hangLimit bounds each wait for an X event; the wait ends at the event,
// so the limit only stops a hang.
const hangLimit = 60 * time.Second

func startXvfb(t *testing.T) string {
	t.Helper()
	d, err := xvfbtest.Start(t)
	if err != nil {
		t.Skip(err)
	}
	return d
}

type fixture struct {
	t    *testing.T
	c    *xgb.Conn
	root xproto.Window
	scr  *xproto.ScreenInfo
}

func (f *fixture) atom(name string) xproto.Atom {
	r, err := xproto.InternAtom(f.c, false, uint16(len(name)), name).Reply()
	if err != nil {
		f.t.Fatal(err)
	}
	return r.Atom
}

func (f *fixture) prop(w xproto.Window, prop, typ xproto.Atom, format byte, data []byte) {
	n := uint32(len(data)) / uint32(format/8)
	if err := xproto.ChangePropertyChecked(f.c, xproto.PropModeReplace, w, prop, typ, format, n, data).Check(); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) window(x, y, w, h int, class, name string, pid int, mapped bool) xproto.Window {
	wid, err := xproto.NewWindowId(f.c)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := xproto.CreateWindowChecked(f.c, f.scr.RootDepth, wid, f.root, int16(x), int16(y), uint16(w), uint16(h), 0,
		xproto.WindowClassInputOutput, f.scr.RootVisual, xproto.CwOverrideRedirect, []uint32{1}).Check(); err != nil {
		f.t.Fatal(err)
	}
	if class != "" {
		f.prop(wid, xproto.AtomWmClass, xproto.AtomString, 8, []byte(strings.ToLower(class)+"\x00"+class+"\x00"))
	}
	if name != "" {
		f.prop(wid, f.atom("_NET_WM_NAME"), f.atom("UTF8_STRING"), 8, []byte(name))
	}
	if pid != 0 {
		b := make([]byte, 4)
		xgb.Put32(b, uint32(pid))
		f.prop(wid, f.atom("_NET_WM_PID"), xproto.AtomCardinal, 32, b)
	}
	if mapped {
		if err := xproto.MapWindowChecked(f.c, wid).Check(); err != nil {
			f.t.Fatal(err)
		}
	}
	return wid
}

func TestClientsE2E(t *testing.T) {
	display := startXvfb(t)
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	scr := xproto.Setup(c).DefaultScreen(c)
	f := &fixture{t: t, c: c, root: scr.Root, scr: scr}
	notes := f.window(100, 50, 400, 300, "Notes", "Shopping list", 4242, true)
	term := f.window(600, 200, 500, 400, "XTerm", "", 0, true)
	f.window(10, 10, 50, 50, "", "", 0, true) // no class, no name: not a client
	gone := f.window(700, 500, 100, 100, "Hidden", "Hidden one", 0, false)
	f.prop(term, xproto.AtomWmName, xproto.AtomString, 8, []byte("bash"))

	d, err := x11.Open(display)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	// No window manager: the root's mapped children, each frame its
	// own client area (no _NET_FRAME_EXTENTS).
	got, err := d.Clients()
	if err != nil {
		t.Fatal(err)
	}
	notesRect, termRect := x11.Rect{X: 100, Y: 50, W: 400, H: 300}, x11.Rect{X: 600, Y: 200, W: 500, H: 400}
	want := []x11.Client{
		{ID: uint32(notes), PID: 4242, App: "Notes", Title: "Shopping list", Rect: notesRect, Frame: notesRect},
		{ID: uint32(term), App: "XTerm", Title: "bash", Rect: termRect, Frame: termRect},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("clients without a WM:\n got %+v\nwant %+v", got, want)
	}

	// An EWMH window manager's list, with a minimised window and a dock.
	dock := f.window(0, 770, 1280, 30, "Panel", "panel", 0, true)
	f.prop(dock, f.atom("_NET_WM_WINDOW_TYPE"), xproto.AtomAtom, 32, atoms(f.atom("_NET_WM_WINDOW_TYPE_DOCK")))
	f.prop(gone, f.atom("_NET_WM_STATE"), xproto.AtomAtom, 32, atoms(f.atom("_NET_WM_STATE_HIDDEN")))
	f.prop(f.root, f.atom("_NET_CLIENT_LIST"), xproto.AtomWindow, 32, atoms(xproto.Atom(term), xproto.Atom(gone), xproto.Atom(dock)))
	// The terminal's frame: borders of 2 px and a 24 px title bar.
	f.prop(term, f.atom("_NET_FRAME_EXTENTS"), xproto.AtomCardinal, 32, cardinals(2, 2, 24, 2))
	got, err = d.Clients()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].App != "XTerm" || got[1].App != "Hidden" || !got[1].Hidden || got[0].Hidden || got[2].Type != "dock" {
		t.Fatalf("clients from _NET_CLIENT_LIST: %+v", got)
	}
	if want := (x11.Rect{X: 598, Y: 176, W: 504, H: 426}); got[0].Frame != want || got[0].Rect != termRect {
		t.Fatalf("the framed terminal: rect %+v frame %+v, want frame %+v", got[0].Rect, got[0].Frame, want)
	}
}

func cardinals(vs ...uint32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		xgb.Put32(b[4*i:], v)
	}
	return b
}

func atoms(as ...xproto.Atom) []byte {
	b := make([]byte, 4*len(as))
	for i, a := range as {
		xgb.Put32(b[4*i:], uint32(a))
	}
	return b
}

func TestActiveWindowAndItsChangesE2E(t *testing.T) {
	display := startXvfb(t)
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	scr := xproto.Setup(c).DefaultScreen(c)
	f := &fixture{t: t, c: c, root: scr.Root, scr: scr}
	notes := f.window(100, 50, 400, 300, "Notes", "Shopping list", 0, true)

	d, err := x11.Open(display)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Active(); err != x11.ErrNoActive {
		t.Fatalf("Active with no window manager: %v, want ErrNoActive", err)
	}
	w, err := x11.Open(display)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	calls := 0
	changes := make(chan struct{}, 8)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- w.WatchActive(ctx, func() {
			mu.Lock()
			calls++
			mu.Unlock()
			changes <- struct{}{}
		})
	}()
	// The watcher selects root property events before it waits: the
	// root's event mask (all clients') shows when it has.
	deadline := time.Now().Add(hangLimit)
	for {
		a, err := xproto.GetWindowAttributes(c, f.root).Reply()
		if err != nil {
			t.Fatal(err)
		}
		if a.AllEventMasks&xproto.EventMaskPropertyChange != 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the watcher never selected root property events")
		}
		time.Sleep(10 * time.Millisecond)
	}

	f.prop(f.root, f.atom("_NET_ACTIVE_WINDOW"), xproto.AtomWindow, 32, atoms(xproto.Atom(notes)))
	select {
	case <-changes:
	case <-time.After(hangLimit):
		t.Fatal("no change reported for _NET_ACTIVE_WINDOW")
	}
	got, err := d.Active()
	if err != nil || got.App != "Notes" || got.Title != "Shopping list" {
		t.Fatalf("Active = %+v, %v", got, err)
	}
	// Other root properties are not reported. The property change is made
	// (a checked request), then a round trip on the watcher's own
	// connection puts its event, if any, in that connection's queue; ending
	// the watch delivers the queue before WatchActive returns. So once it
	// has returned, every call for that change has been made.
	f.prop(f.root, f.atom("_NET_CLIENT_LIST"), xproto.AtomWindow, 32, atoms(xproto.Atom(notes)))
	if _, err := w.Active(); err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(hangLimit):
		t.Fatal("WatchActive did not return after its context ended")
	}
	mu.Lock()
	defer mu.Unlock()
	if calls != 1 {
		t.Fatalf("%d changes reported, want 1: a change of another root property was reported", calls)
	}
}
