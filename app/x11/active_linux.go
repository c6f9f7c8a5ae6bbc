package x11

import (
	"context"
	"errors"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// ErrNoActive means the window manager names no active window (none has
// focus, or there is no EWMH window manager).
var ErrNoActive = errors.New("x11: no active window")

// Active reads the window manager's _NET_ACTIVE_WINDOW and that window's
// app and title. It returns ErrNoActive when none is set or the window is
// gone.
func (d *Display) Active() (Client, error) {
	a, err := d.atom("_NET_ACTIVE_WINDOW")
	if err != nil {
		return Client{}, err
	}
	p, err := xproto.GetProperty(d.conn, false, d.root, a, xproto.AtomWindow, 0, 1).Reply()
	if err != nil {
		return Client{}, err
	}
	if p.Format != 32 || len(p.Value) < 4 {
		return Client{}, ErrNoActive
	}
	w := xproto.Window(xgb.Get32(p.Value))
	if w == 0 {
		return Client{}, ErrNoActive
	}
	c, ok := d.client(w)
	if !ok {
		return Client{}, ErrNoActive
	}
	return c, nil
}

// WatchActive calls changed (on its own goroutine) each time the window
// manager changes _NET_ACTIVE_WINDOW, until ctx ends or the connection
// breaks; then it returns. It selects property changes on the root window
// and so costs nothing while the user stays in one window. Use a Display
// of its own: WatchActive reads the connection's events.
func (d *Display) WatchActive(ctx context.Context, changed func()) error {
	a, err := d.atom("_NET_ACTIVE_WINDOW")
	if err != nil {
		return err
	}
	if err := xproto.ChangeWindowAttributesChecked(d.conn, d.root, xproto.CwEventMask,
		[]uint32{xproto.EventMaskPropertyChange}).Check(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, d.conn.Close)
	defer stop()
	for {
		ev, err := d.conn.WaitForEvent()
		if ev == nil && err == nil {
			return ctx.Err() // the connection closed
		}
		if pn, ok := ev.(xproto.PropertyNotifyEvent); ok && pn.Atom == a {
			changed()
		}
	}
}
