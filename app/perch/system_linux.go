package perch

import (
	"context"
	"fmt"
	"image"
	"os"
	"strings"

	"yui/app/look"
	"yui/app/x11"
)

// X11 is the X server named Display ("" is $DISPLAY). Each Watch opens a
// connection of its own.
type X11 struct{ Display string }

// System is the X server of $DISPLAY.
func System() Desktop { return X11{} }

// Windows lists the X server's top-level clients (look.X11Windows).
func (x X11) Windows() ([]look.Window, error) { return look.X11Windows{Display: x.Display}.Windows() }

// Watch follows window id (x11.Display.WatchClient).
func (x X11) Watch(ctx context.Context, id uint64, fn func(Change)) error {
	d, err := x11.Open(x.Display)
	if err != nil {
		return fmt.Errorf("perch: watch: %w", err)
	}
	defer d.Close()
	return d.WatchClient(ctx, uint32(id), func(c x11.ClientChange) {
		fn(Change{Frame: image.Rect(c.Frame.X, c.Frame.Y, c.Frame.X+c.Frame.W, c.Frame.Y+c.Frame.H),
			Gone: c.Gone, Hidden: c.Hidden, Fullscreen: c.Fullscreen, Restacked: c.Restacked})
	})
}

// Available reports whether her windows live on an X server she can be
// moved on: $DISPLAY is set, and GTK is not told to draw them with
// Wayland: GDK_BACKEND unset or naming x11 first. (GTK's own default
// under a Wayland session is Wayland, where no window can be placed; the
// shell does not set it, so such a session counts only when $DISPLAY
// is set and WAYLAND_DISPLAY is not.)
func Available() bool {
	if os.Getenv("DISPLAY") == "" {
		return false
	}
	b := os.Getenv("GDK_BACKEND")
	if b != "" {
		return strings.HasPrefix(b, "x11")
	}
	return os.Getenv("WAYLAND_DISPLAY") == ""
}
