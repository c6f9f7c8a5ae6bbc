package x11

import (
	"context"
	"fmt"
	"slices"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// ClientChange is what happened to a watched window.
type ClientChange struct {
	// Frame is where the window is now, frame included (Client.Frame).
	Frame Rect
	// Gone: the window was closed (destroyed, or left the client list).
	Gone bool
	// Hidden: unmapped or minimised (_NET_WM_STATE_HIDDEN).
	Hidden bool
	// Fullscreen: _NET_WM_STATE_FULLSCREEN.
	Fullscreen bool
	// Restacked: the window manager's stacking order changed (the window
	// may now be covered); Frame is still current.
	Restacked bool
}

// WatchClient calls fn on this goroutine each time the client window id
// moves, resizes, is minimised, unmapped, goes fullscreen, is closed or
// the stacking order changes, until ctx ends, the window is gone (after
// its Gone change) or the connection breaks. It is event driven: it
// selects ConfigureNotify on the window and on the window manager's frame
// around it, property changes on the window (_NET_WM_STATE,
// _NET_FRAME_EXTENTS) and on the root (_NET_CLIENT_LIST,
// _NET_CLIENT_LIST_STACKING), and costs nothing while nothing happens.
// Events that queued while one was handled are folded into one change.
// Use a Display of its own: WatchClient reads the connection's events.
func (d *Display) WatchClient(ctx context.Context, id uint32, fn func(ClientChange)) error {
	w := xproto.Window(id)
	atoms := map[string]xproto.Atom{}
	for _, n := range []string{"_NET_WM_STATE", "_NET_FRAME_EXTENTS", "_NET_CLIENT_LIST", "_NET_CLIENT_LIST_STACKING"} {
		a, err := d.atom(n)
		if err != nil {
			return err
		}
		atoms[n] = a
	}
	if err := xproto.ChangeWindowAttributesChecked(d.conn, w, xproto.CwEventMask,
		[]uint32{xproto.EventMaskStructureNotify | xproto.EventMaskPropertyChange}).Check(); err != nil {
		return fmt.Errorf("x11: watch window %#x: %w", id, err)
	}
	frame := d.topLevel(w)
	if frame != w {
		if err := xproto.ChangeWindowAttributesChecked(d.conn, frame, xproto.CwEventMask,
			[]uint32{xproto.EventMaskStructureNotify}).Check(); err != nil {
			return fmt.Errorf("x11: watch frame %#x: %w", frame, err)
		}
	}
	if err := xproto.ChangeWindowAttributesChecked(d.conn, d.root, xproto.CwEventMask,
		[]uint32{xproto.EventMaskPropertyChange}).Check(); err != nil {
		return fmt.Errorf("x11: watch root: %w", err)
	}
	stop := context.AfterFunc(ctx, d.conn.Close)
	defer stop()
	for {
		ev, xerr := d.conn.WaitForEvent()
		if ev == nil && xerr == nil {
			return ctx.Err() // the connection closed
		}
		var ch pending
		ch.add(ev, w, d.root, atoms)
		for { // fold what queued meanwhile
			ev, xerr := d.conn.PollForEvent()
			if ev == nil && xerr == nil {
				break
			}
			ch.add(ev, w, d.root, atoms)
		}
		if !ch.any() {
			continue
		}
		if ch.list && !ch.gone {
			ids, err := d.clientList()
			ch.gone = err == nil && len(ids) > 0 && !slices.Contains(ids, w)
		}
		out := ClientChange{Restacked: ch.restack}
		if !ch.gone {
			r, ok := d.clientRect(w)
			if !ok {
				ch.gone = true
			} else {
				out.Frame = d.framed(w, r)
			}
		}
		if ch.gone {
			fn(ClientChange{Gone: true})
			return nil
		}
		attr, err := xproto.GetWindowAttributes(d.conn, w).Reply()
		out.Hidden = ch.unmapped || err != nil || attr.MapState != xproto.MapStateViewable || d.hasState(w, "_NET_WM_STATE_HIDDEN")
		out.Fullscreen = d.hasState(w, "_NET_WM_STATE_FULLSCREEN")
		fn(out)
	}
}

// pending folds a run of events into one change.
type pending struct {
	moved, state, restack, list, unmapped, gone bool
}

func (p *pending) any() bool {
	return p.moved || p.state || p.restack || p.list || p.unmapped || p.gone
}

func (p *pending) add(ev xgb.Event, w, root xproto.Window, atoms map[string]xproto.Atom) {
	switch e := ev.(type) {
	case xproto.ConfigureNotifyEvent:
		p.moved = true
	case xproto.UnmapNotifyEvent:
		if e.Window == w {
			p.unmapped = true
		}
	case xproto.MapNotifyEvent:
		if e.Window == w {
			p.unmapped, p.state = false, true
		}
	case xproto.DestroyNotifyEvent:
		if e.Window == w {
			p.gone = true
		}
	case xproto.PropertyNotifyEvent:
		switch {
		case e.Window == w && (e.Atom == atoms["_NET_WM_STATE"] || e.Atom == atoms["_NET_FRAME_EXTENTS"]):
			p.state = true
		case e.Window == root && e.Atom == atoms["_NET_CLIENT_LIST_STACKING"]:
			p.restack, p.list = true, true
		case e.Window == root && e.Atom == atoms["_NET_CLIENT_LIST"]:
			p.list = true
		}
	}
}

// clientRect reads w's client area in root pixels; false when w is gone.
func (d *Display) clientRect(w xproto.Window) (Rect, bool) {
	geo, err := xproto.GetGeometry(d.conn, xproto.Drawable(w)).Reply()
	if err != nil {
		return Rect{}, false
	}
	tr, err := xproto.TranslateCoordinates(d.conn, w, d.root, 0, 0).Reply()
	if err != nil {
		return Rect{}, false
	}
	return Rect{X: int(tr.DstX), Y: int(tr.DstY), W: int(geo.Width), H: int(geo.Height)}, true
}

// topLevel is the child of the root holding w: the window manager's frame
// around it, or w itself when it is not reparented.
func (d *Display) topLevel(w xproto.Window) xproto.Window {
	for range 16 {
		tr, err := xproto.QueryTree(d.conn, w).Reply()
		if err != nil || tr.Parent == d.root || tr.Parent == 0 {
			return w
		}
		w = tr.Parent
	}
	return w
}
