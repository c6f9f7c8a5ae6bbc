package tray

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"

	"fyne.io/systray"
	"github.com/godbus/dbus/v5"
)

const watcherName = "org.kde.StatusNotifierWatcher"

// sessionBus connects to the session bus the way the library will (the
// shared connection), but only when one is configured: with neither
// $DBUS_SESSION_BUS_ADDRESS nor $XDG_RUNTIME_DIR/bus, godbus would try to
// autolaunch one with dbus-launch, which a desktop without a bus does not
// want.
func sessionBus() (*dbus.Conn, error) {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		rt := os.Getenv("XDG_RUNTIME_DIR")
		if rt == "" {
			return nil, ErrNoSessionBus
		}
		if _, err := os.Stat(filepath.Join(rt, "bus")); err != nil {
			return nil, ErrNoSessionBus
		}
	}
	conn, err := dbus.SessionBus()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSessionBus, err)
	}
	return conn, nil
}

func (t *Tray) start() error {
	conn, err := sessionBus()
	if err != nil {
		return err
	}
	var hasHost bool
	if err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, watcherName).Store(&hasHost); err == nil && !hasHost {
		t.log.Info("tray_no_host", "note", "no StatusNotifierWatcher on the session bus; the icon appears when a tray host starts")
	}
	// Icon, title and tooltip before the item is exported: the exported
	// properties start with them.
	systray.SetIcon(opaqueOrClear(t.opts.Icon))
	systray.SetTitle(t.opts.Title)
	systray.SetTooltip(t.opts.Title)
	start, end := systray.RunWithExternalLoop(t.onReady, func() {})
	t.end = end
	start()
	go func() {
		for {
			select {
			case <-systray.TrayOpenedCh:
				if t.opts.OnOpen != nil {
					t.opts.OnOpen()
				}
			case <-t.stopped:
				return
			}
		}
	}()
	t.log.Info("tray_started", "bus", "session")
	return nil
}

func (t *Tray) stop() {
	<-t.ready // the library's GetLayout waits for the menu; end after it
	t.end()
	close(t.stopped)
}

// opaqueOrClear makes every pixel of a PNG either opaque or clear (alpha
// at least half: opaque with its colour; less: clear). fyne.io/systray
// v1.12.2 builds the ARGB pixmap from the low byte of image.Color.RGBA's
// premultiplied 16-bit values, which is right only for alpha 0 and 255;
// a host scaling the icon to the panel smooths the edge again. Bytes that
// are not a PNG are passed on unchanged (the library logs them).
func opaqueOrClear(b []byte) []byte {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return b
	}
	r := img.Bounds()
	out := image.NewNRGBA(r)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			if c.A >= 128 {
				c.A = 255
			} else {
				c = color.NRGBA{}
			}
			out.SetNRGBA(x, y, c)
		}
	}
	var w bytes.Buffer
	if err := png.Encode(&w, out); err != nil {
		return b
	}
	return w.Bytes()
}
