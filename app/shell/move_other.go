//go:build !(linux && cgo && desktop)

package shell

import (
	"context"
	"image"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// moveTo puts the window's top-left corner at the absolute screen point
// (x, y). Wails v2 reads a position in absolute pixels but sets it
// relative to the monitor the window is on (on Windows, its work area:
// SetWindowPos(workRect.Left+x, workRect.Top+y)), so that origin is taken
// off first (setOrigin).
func (w *window) moveTo(ctx context.Context, x, y int) {
	cx, cy := runtime.WindowGetPosition(ctx)
	cw, ch := runtime.WindowGetSize(ctx)
	o := setOrigin(image.Rect(cx, cy, cx+cw, cy+ch))
	runtime.WindowSetPosition(ctx, x-o.X, y-o.Y)
}

// dragTo is moveTo for a drag's many small moves.
func (w *window) dragTo(ctx context.Context, x, y int) { w.moveTo(ctx, x, y) }
