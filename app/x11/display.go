package x11

import (
	"errors"
	"fmt"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/shape"
	"github.com/jezek/xgb/xproto"
)

// Rect is a rectangle in window coordinates (pixels).
type Rect struct {
	X, Y, W, H int
}

// Display is a connection to the X server.
type Display struct {
	conn  *xgb.Conn
	root  xproto.Window
	atoms map[string]xproto.Atom
	shape bool
}

// Open connects to the display named by $DISPLAY (or name, when set).
func Open(name string) (*Display, error) {
	c, err := xgb.NewConnDisplay(name)
	if err != nil {
		return nil, fmt.Errorf("x11: connect %q: %w", name, err)
	}
	d := &Display{conn: c, root: xproto.Setup(c).DefaultScreen(c).Root, atoms: map[string]xproto.Atom{}}
	d.shape = shape.Init(c) == nil
	return d, nil
}

// Close ends the connection.
func (d *Display) Close() { d.conn.Close() }

func (d *Display) atom(name string) (xproto.Atom, error) {
	if a, ok := d.atoms[name]; ok {
		return a, nil
	}
	r, err := xproto.InternAtom(d.conn, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0, fmt.Errorf("x11: intern %s: %w", name, err)
	}
	d.atoms[name] = r.Atom
	return r.Atom, nil
}

// ErrNotFound is returned when no window matches.
var ErrNotFound = errors.New("x11: window not found")
