package x11

import (
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// extents reads the window manager's _NET_FRAME_EXTENTS of w (left,
// right, top, bottom); zeros when unset.
func (d *Display) extents(w xproto.Window) (l, r, t, b int) {
	a, err := d.atom("_NET_FRAME_EXTENTS")
	if err != nil {
		return 0, 0, 0, 0
	}
	p, err := xproto.GetProperty(d.conn, false, w, a, xproto.AtomCardinal, 0, 4).Reply()
	if err != nil || p.Format != 32 || len(p.Value) < 16 {
		return 0, 0, 0, 0
	}
	v := p.Value
	return int(xgb.Get32(v)), int(xgb.Get32(v[4:])), int(xgb.Get32(v[8:])), int(xgb.Get32(v[12:]))
}

// framed grows the client area r of w by its frame extents.
func (d *Display) framed(w xproto.Window, r Rect) Rect {
	l, rt, t, b := d.extents(w)
	return Rect{X: r.X - l, Y: r.Y - t, W: r.W + l + rt, H: r.H + t + b}
}
