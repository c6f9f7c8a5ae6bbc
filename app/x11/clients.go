package x11

import (
	"fmt"
	"strings"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// Client is one top-level application window.
type Client struct {
	ID    uint32
	PID   int    // _NET_WM_PID, 0 when unknown
	App   string // WM_CLASS class (e.g. "Firefox"), else its instance
	Title string // _NET_WM_NAME, else WM_NAME
	// Rect is the window's client area in root (absolute screen) pixels.
	Rect Rect
	// Frame is Rect grown by the window manager's _NET_FRAME_EXTENTS (its
	// title bar and borders): the window as the user sees it. Rect
	// without an EWMH window manager.
	Frame Rect
	// Type is the last part of _NET_WM_WINDOW_TYPE in lower case
	// ("normal", "dialog", "dock", "desktop", …); "" when unset.
	Type string
	// Hidden: not viewable, or _NET_WM_STATE_HIDDEN (minimised).
	Hidden bool
	// Fullscreen: _NET_WM_STATE_FULLSCREEN.
	Fullscreen bool
}

// Clients lists the top-level windows: the window manager's
// _NET_CLIENT_LIST_STACKING (bottom to top) or _NET_CLIENT_LIST; without
// an EWMH window manager, the root's mapped children that carry a WM_CLASS
// or a name, in stacking order. Windows that vanish while being read are
// left out.
func (d *Display) Clients() ([]Client, error) {
	ids, err := d.clientList()
	if err != nil {
		return nil, err
	}
	out := make([]Client, 0, len(ids))
	for _, w := range ids {
		if c, ok := d.client(w); ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// clientList returns the window ids to read.
func (d *Display) clientList() ([]xproto.Window, error) {
	for _, name := range []string{"_NET_CLIENT_LIST_STACKING", "_NET_CLIENT_LIST"} {
		a, err := d.atom(name)
		if err != nil {
			return nil, err
		}
		p, err := xproto.GetProperty(d.conn, false, d.root, a, xproto.AtomWindow, 0, 4096).Reply()
		if err != nil {
			return nil, fmt.Errorf("x11: read %s: %w", name, err)
		}
		if p.Format == 32 && p.ValueLen > 0 {
			return windows(p.Value), nil
		}
	}
	tree, err := xproto.QueryTree(d.conn, d.root).Reply()
	if err != nil {
		return nil, fmt.Errorf("x11: list root children: %w", err)
	}
	var ids []xproto.Window
	for _, w := range tree.Children {
		attr, err := xproto.GetWindowAttributes(d.conn, w).Reply()
		if err != nil || attr.MapState != xproto.MapStateViewable {
			continue
		}
		if d.text(w, xproto.AtomWmClass) != "" || d.title(w) != "" {
			ids = append(ids, w)
		}
	}
	return ids, nil
}

func windows(v []byte) []xproto.Window {
	ids := make([]xproto.Window, 0, len(v)/4)
	for i := 0; i+4 <= len(v); i += 4 {
		ids = append(ids, xproto.Window(xgb.Get32(v[i:])))
	}
	return ids
}

// client reads one window; false when it is gone.
func (d *Display) client(w xproto.Window) (Client, bool) {
	geo, err := xproto.GetGeometry(d.conn, xproto.Drawable(w)).Reply()
	if err != nil {
		return Client{}, false
	}
	tr, err := xproto.TranslateCoordinates(d.conn, w, d.root, 0, 0).Reply()
	if err != nil {
		return Client{}, false
	}
	c := Client{ID: uint32(w), Title: d.title(w),
		Rect: Rect{X: int(tr.DstX), Y: int(tr.DstY), W: int(geo.Width), H: int(geo.Height)}}
	c.Frame = d.framed(w, c.Rect)
	c.App = appName(d.text(w, xproto.AtomWmClass))
	if a, err := d.atom("_NET_WM_PID"); err == nil {
		if p, err := xproto.GetProperty(d.conn, false, w, a, xproto.AtomCardinal, 0, 1).Reply(); err == nil && p.Format == 32 && len(p.Value) >= 4 {
			c.PID = int(xgb.Get32(p.Value))
		}
	}
	c.Type = d.windowType(w)
	attr, err := xproto.GetWindowAttributes(d.conn, w).Reply()
	c.Hidden = err != nil || attr.MapState != xproto.MapStateViewable || d.hasState(w, "_NET_WM_STATE_HIDDEN")
	c.Fullscreen = d.hasState(w, "_NET_WM_STATE_FULLSCREEN")
	return c, true
}

// appName picks the class from WM_CLASS ("instance\0Class\0").
func appName(wmClass string) string {
	parts := strings.Split(strings.TrimRight(wmClass, "\x00"), "\x00")
	for i := len(parts) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(parts[i]); s != "" {
			return s
		}
	}
	return ""
}

// text reads a string property.
func (d *Display) text(w xproto.Window, prop xproto.Atom) string {
	p, err := xproto.GetProperty(d.conn, false, w, prop, xproto.GetPropertyTypeAny, 0, 1024).Reply()
	if err != nil || p.Format != 8 {
		return ""
	}
	return string(p.Value)
}

// title reads _NET_WM_NAME, else WM_NAME.
func (d *Display) title(w xproto.Window) string {
	if a, err := d.atom("_NET_WM_NAME"); err == nil {
		if s := d.text(w, a); s != "" {
			return s
		}
	}
	return d.text(w, xproto.AtomWmName)
}

// atomList reads an ATOM[] property.
func (d *Display) atomList(w xproto.Window, name string) []xproto.Atom {
	a, err := d.atom(name)
	if err != nil {
		return nil
	}
	p, err := xproto.GetProperty(d.conn, false, w, a, xproto.AtomAtom, 0, 64).Reply()
	if err != nil || p.Format != 32 {
		return nil
	}
	out := make([]xproto.Atom, 0, len(p.Value)/4)
	for i := 0; i+4 <= len(p.Value); i += 4 {
		out = append(out, xproto.Atom(xgb.Get32(p.Value[i:])))
	}
	return out
}

func (d *Display) hasState(w xproto.Window, state string) bool {
	want, err := d.atom(state)
	if err != nil {
		return false
	}
	for _, a := range d.atomList(w, "_NET_WM_STATE") {
		if a == want {
			return true
		}
	}
	return false
}

func (d *Display) windowType(w xproto.Window) string {
	types := d.atomList(w, "_NET_WM_WINDOW_TYPE")
	if len(types) == 0 {
		return ""
	}
	n, err := xproto.GetAtomName(d.conn, types[0]).Reply()
	if err != nil {
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(n.Name, "_NET_WM_WINDOW_TYPE_"))
}
