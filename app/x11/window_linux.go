package x11

// The pet window's own calls (find it, shape its input, keep it off the
// task bar): only the Linux shell makes them.

import (
	"errors"
	"fmt"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/shape"
	"github.com/jezek/xgb/xproto"
)

// FindWindow returns the viewable window whose _NET_WM_PID is pid and whose
// WM_NAME is title, searching the whole tree (window managers reparent
// top-level windows into frames).
func (d *Display) FindWindow(pid int, title string) (xproto.Window, error) {
	pidAtom, err := d.atom("_NET_WM_PID")
	if err != nil {
		return 0, err
	}
	var walk func(w xproto.Window, depth int) xproto.Window
	walk = func(w xproto.Window, depth int) xproto.Window {
		tree, err := xproto.QueryTree(d.conn, w).Reply()
		if err != nil {
			return 0
		}
		for _, ch := range tree.Children {
			if d.matches(ch, pidAtom, pid, title) {
				return ch
			}
			if depth < 3 {
				if f := walk(ch, depth+1); f != 0 {
					return f
				}
			}
		}
		return 0
	}
	if w := walk(d.root, 0); w != 0 {
		return w, nil
	}
	return 0, ErrNotFound
}

func (d *Display) matches(w xproto.Window, pidAtom xproto.Atom, pid int, title string) bool {
	p, err := xproto.GetProperty(d.conn, false, w, pidAtom, xproto.AtomCardinal, 0, 1).Reply()
	if err != nil || p.Format != 32 || len(p.Value) < 4 || int(xgb.Get32(p.Value)) != pid {
		return false
	}
	attr, err := xproto.GetWindowAttributes(d.conn, w).Reply()
	if err != nil || attr.MapState != xproto.MapStateViewable {
		return false
	}
	n, err := xproto.GetProperty(d.conn, false, w, xproto.AtomWmName, xproto.GetPropertyTypeAny, 0, 1024).Reply()
	if err != nil {
		return false
	}
	if string(n.Value) == title {
		return true
	}
	utf, err := d.atom("_NET_WM_NAME")
	if err != nil {
		return false
	}
	n, err = xproto.GetProperty(d.conn, false, w, utf, xproto.GetPropertyTypeAny, 0, 1024).Reply()
	return err == nil && string(n.Value) == title
}

// SetInputShape makes only rects receive pointer input; everything else in
// the window passes clicks to the windows below. An empty list makes the
// whole window click-through.
func (d *Display) SetInputShape(w xproto.Window, rects []Rect) error {
	if !d.shape {
		return errors.New("x11: shape extension missing")
	}
	xr := make([]xproto.Rectangle, 0, len(rects))
	for _, r := range rects {
		if r.W <= 0 || r.H <= 0 {
			continue
		}
		xr = append(xr, xproto.Rectangle{X: int16(r.X), Y: int16(r.Y), Width: uint16(r.W), Height: uint16(r.H)})
	}
	if err := shape.RectanglesChecked(d.conn, shape.SoSet, shape.SkInput, xproto.ClipOrderingUnsorted, w, 0, 0, xr).Check(); err != nil {
		return fmt.Errorf("x11: input shape: %w", err)
	}
	return nil
}

// SkipTaskbar keeps w out of task bars and pagers: it asks the window
// manager through _NET_WM_STATE and also sets the property, which is what
// a window manager reads when the window maps again.
func (d *Display) SkipTaskbar(w xproto.Window) error {
	state, err := d.atom("_NET_WM_STATE")
	if err != nil {
		return err
	}
	var add []xproto.Atom
	for _, n := range []string{"_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER", "_NET_WM_STATE_ABOVE"} {
		a, err := d.atom(n)
		if err != nil {
			return err
		}
		add = append(add, a)
	}
	// _NET_WM_STATE_ADD (1) takes up to two properties per message; the
	// last data word 1 says the request comes from an application.
	for _, pair := range [][2]uint32{{uint32(add[0]), uint32(add[1])}, {uint32(add[2]), 0}} {
		ev := xproto.ClientMessageEvent{
			Format: 32, Window: w, Type: state,
			Data: xproto.ClientMessageDataUnionData32New([]uint32{1, pair[0], pair[1], 1, 0}),
		}
		xproto.SendEvent(d.conn, false, d.root, xproto.EventMaskSubstructureRedirect|xproto.EventMaskSubstructureNotify, string(ev.Bytes()))
	}
	// Merge into the existing property so GTK's own states stay.
	cur, err := xproto.GetProperty(d.conn, false, w, state, xproto.AtomAtom, 0, 64).Reply()
	have := map[xproto.Atom]bool{}
	var vals []xproto.Atom
	if err == nil && cur.Format == 32 {
		for i := 0; i+4 <= len(cur.Value); i += 4 {
			a := xproto.Atom(xgb.Get32(cur.Value[i:]))
			have[a] = true
			vals = append(vals, a)
		}
	}
	for _, a := range add {
		if !have[a] {
			vals = append(vals, a)
		}
	}
	buf := make([]byte, 4*len(vals))
	for i, a := range vals {
		xgb.Put32(buf[4*i:], uint32(a))
	}
	if err := xproto.ChangePropertyChecked(d.conn, xproto.PropModeReplace, w, state, xproto.AtomAtom, 32, uint32(len(vals)), buf).Check(); err != nil {
		return fmt.Errorf("x11: set _NET_WM_STATE: %w", err)
	}
	return nil
}
