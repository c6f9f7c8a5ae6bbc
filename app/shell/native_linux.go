package shell

import (
	"errors"
	"fmt"
	"os"

	"github.com/jezek/xgb/xproto"

	"yui/app/x11"
)

// x11Window is the pet's X11 window: skip-taskbar through _NET_WM_STATE,
// click-through through the shape extension's input shape.
type x11Window struct {
	d   *x11.Display
	win xproto.Window
}

// findNative finds this process's window titled title on $DISPLAY;
// errNotYet while it is not mapped.
func findNative(title string) (native, error) {
	d, err := x11.Open("")
	if err != nil {
		return nil, fmt.Errorf("shell: %w", err)
	}
	win, err := d.FindWindow(os.Getpid(), title)
	if errors.Is(err, x11.ErrNotFound) {
		d.Close()
		return nil, errNotYet
	}
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("shell: %w", err)
	}
	return &x11Window{d: d, win: win}, nil
}

func (x *x11Window) SkipTaskbar() error { return x.d.SkipTaskbar(x.win) }

func (x *x11Window) SetInputShape(rects []x11.Rect) error { return x.d.SetInputShape(x.win, rects) }
