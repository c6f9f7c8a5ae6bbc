package x11

import (
	"fmt"
	"time"

	"github.com/jezek/xgb/screensaver"
	"github.com/jezek/xgb/xproto"
)

// IdleTime is how long since the user's last keyboard or mouse input on
// this display, from the MIT-SCREEN-SAVER extension (the X server's own
// count, every client's input: what screen savers and `xprintidle` read).
func (d *Display) IdleTime() (time.Duration, error) {
	if err := screensaver.Init(d.conn); err != nil {
		return 0, fmt.Errorf("x11: no MIT-SCREEN-SAVER: %w", err)
	}
	r, err := screensaver.QueryInfo(d.conn, xproto.Drawable(d.root)).Reply()
	if err != nil {
		return 0, fmt.Errorf("x11: screensaver query: %w", err)
	}
	return time.Duration(r.MsSinceUserInput) * time.Millisecond, nil
}

// ScreenSaverOn reports whether the screen saver shows (MIT-SCREEN-SAVER's
// state; screen lockers that use it, and blanking, set it).
func (d *Display) ScreenSaverOn() (bool, error) {
	if err := screensaver.Init(d.conn); err != nil {
		return false, fmt.Errorf("x11: no MIT-SCREEN-SAVER: %w", err)
	}
	r, err := screensaver.QueryInfo(d.conn, xproto.Drawable(d.root)).Reply()
	if err != nil {
		return false, fmt.Errorf("x11: screensaver query: %w", err)
	}
	return r.State == screensaver.StateOn, nil
}

// ActiveFullscreen reports whether the active window has
// _NET_WM_STATE_FULLSCREEN (a film, a game, a presentation).
func (d *Display) ActiveFullscreen() (bool, error) {
	c, err := d.Active()
	if err != nil {
		return false, err
	}
	return d.hasState(xproto.Window(c.ID), "_NET_WM_STATE_FULLSCREEN"), nil
}
