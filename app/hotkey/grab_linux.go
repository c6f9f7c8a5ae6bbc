package hotkey

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// X11 grabs the combination on the root window of the X display named by
// $DISPLAY (or Display, when set).
type X11 struct {
	Display string
}

// System is the platform's Grabber.
func System() Grabber { return X11{} }

// keysyms of the keys Parse knows (X11/keysymdef.h); letters are looked up
// by their lower-case keysym, which is what a key's first level holds.
var keysyms = map[string]xproto.Keysym{
	"Space": 0x20, "Enter": 0xff0d, "Tab": 0xff09, "Escape": 0xff1b, "Insert": 0xff63, "Delete": 0xffff,
	"Home": 0xff50, "End": 0xff57, "PageUp": 0xff55, "PageDown": 0xff56,
	"Left": 0xff51, "Up": 0xff52, "Right": 0xff53, "Down": 0xff54, "Pause": 0xff13,
}

func keysym(key string) xproto.Keysym {
	if k, ok := keysyms[key]; ok {
		return k
	}
	if len(key) == 1 {
		return xproto.Keysym(strings.ToLower(key)[0])
	}
	var n int
	fmt.Sscanf(key, "F%d", &n)
	return xproto.Keysym(0xffbe + n - 1)
}

// Listen grabs c on the root window. The grab is made for every state of
// Caps Lock and Num Lock (X matches modifiers exactly), so the shortcut
// works whatever the lock keys are.
func (x X11) Listen(ctx context.Context, c Combo, fn func()) error {
	conn, err := xgb.NewConnDisplay(x.Display)
	if err != nil {
		return fmt.Errorf("hotkey: connect to the X server: %w", err)
	}
	root := xproto.Setup(conn).DefaultScreen(conn).Root
	code, err := keycodeOf(conn, keysym(c.Key))
	if err != nil {
		conn.Close()
		return fmt.Errorf("hotkey: %s: %w", c, err)
	}
	mods, numLock := modMask(conn, c.Mods)
	var grabbed []uint16
	for _, extra := range []uint16{0, xproto.ModMaskLock, numLock, xproto.ModMaskLock | numLock} {
		m := mods | extra
		if err := xproto.GrabKeyChecked(conn, true, root, m, code, xproto.GrabModeAsync, xproto.GrabModeAsync).Check(); err != nil {
			for _, g := range grabbed {
				xproto.UngrabKey(conn, code, root, g)
			}
			conn.Close()
			var acc xproto.AccessError
			if errors.As(err, &acc) {
				return fmt.Errorf("hotkey: %s: %w", c, ErrTaken)
			}
			return fmt.Errorf("hotkey: grab %s: %w", c, err)
		}
		grabbed = append(grabbed, m)
	}
	presses := make(chan struct{}, 1)
	go func() {
		for range presses {
			fn()
		}
	}()
	go func() {
		<-ctx.Done()
		conn.Close() // ends WaitForEvent; the server drops the grabs with the connection
	}()
	go func() {
		defer close(presses)
		for {
			ev, err := conn.WaitForEvent()
			if ev == nil && err == nil {
				return // closed
			}
			if kp, ok := ev.(xproto.KeyPressEvent); ok && kp.Detail == code {
				select {
				case presses <- struct{}{}:
				default: // one call is pending already
				}
			}
		}
	}()
	return nil
}

// keycodeOf finds a keycode whose symbols include sym.
func keycodeOf(conn *xgb.Conn, sym xproto.Keysym) (xproto.Keycode, error) {
	setup := xproto.Setup(conn)
	first, last := setup.MinKeycode, setup.MaxKeycode
	r, err := xproto.GetKeyboardMapping(conn, first, byte(last-first+1)).Reply()
	if err != nil {
		return 0, fmt.Errorf("keyboard mapping: %w", err)
	}
	per := int(r.KeysymsPerKeycode)
	for i := 0; i*per < len(r.Keysyms); i++ {
		for j := 0; j < per; j++ {
			if r.Keysyms[i*per+j] == sym {
				return xproto.Keycode(int(first) + i), nil
			}
		}
	}
	return 0, errors.New("no key on this keyboard types it")
}

// modMask turns m into X modifier bits: Alt and Super are whichever of
// Mod1–Mod5 holds Alt_L/Alt_R and Super_L/Super_R (Mod1 and Mod4 when the
// map cannot be read); numLock is Num Lock's bit (Mod2 by default).
func modMask(conn *xgb.Conn, m Modifiers) (mods, numLock uint16) {
	alt, super, num := uint16(xproto.ModMask1), uint16(xproto.ModMask4), uint16(xproto.ModMask2)
	if found := modifierBits(conn); found != nil {
		if b, ok := found[0xffe9]; ok { // Alt_L
			alt = b
		}
		if b, ok := found[0xffeb]; ok { // Super_L
			super = b
		}
		if b, ok := found[0xff7f]; ok { // Num_Lock
			num = b
		}
	}
	if m&Ctrl != 0 {
		mods |= xproto.ModMaskControl
	}
	if m&Shift != 0 {
		mods |= xproto.ModMaskShift
	}
	if m&Alt != 0 {
		mods |= alt
	}
	if m&Super != 0 {
		mods |= super
	}
	return mods, num
}

// modifierBits maps the keysyms bound to Mod1–Mod5 to their bit.
func modifierBits(conn *xgb.Conn) map[xproto.Keysym]uint16 {
	mm, err := xproto.GetModifierMapping(conn).Reply()
	if err != nil {
		return nil
	}
	setup := xproto.Setup(conn)
	first, last := setup.MinKeycode, setup.MaxKeycode
	km, err := xproto.GetKeyboardMapping(conn, first, byte(last-first+1)).Reply()
	if err != nil {
		return nil
	}
	per := int(mm.KeycodesPerModifier)
	out := map[xproto.Keysym]uint16{}
	for mod := 3; mod < 8; mod++ { // Mod1..Mod5
		for k := 0; k < per; k++ {
			code := mm.Keycodes[mod*per+k]
			if code == 0 || code < first {
				continue
			}
			base := int(code-first) * int(km.KeysymsPerKeycode)
			for j := 0; j < int(km.KeysymsPerKeycode) && base+j < len(km.Keysyms); j++ {
				if _, seen := out[km.Keysyms[base+j]]; !seen {
					out[km.Keysyms[base+j]] = 1 << mod
				}
			}
		}
	}
	return out
}
