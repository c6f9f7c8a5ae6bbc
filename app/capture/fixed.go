package capture

import (
	"context"
	"fmt"
	"image"
	"sync"

	"yui/app/permission"
)

// Fixed is an in-memory Source: fixed monitors, and an image per monitor
// drawn by Draw (nil: a mid-grey image of the monitor's size). For tests
// and for front ends without a screen.
type Fixed struct {
	Screens []Monitor
	Draw    func(m Monitor) *image.RGBA

	mu    sync.Mutex
	taken []int
}

// Monitors returns Screens.
func (f *Fixed) Monitors() ([]Monitor, error) { return append([]Monitor(nil), f.Screens...), nil }

// Capture uses up g and returns the monitor's image.
func (f *Fixed) Capture(ctx context.Context, g *permission.Grant) (Shot, error) {
	i, err := g.Use()
	if err != nil {
		return Shot{}, fmt.Errorf("capture: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return Shot{}, fmt.Errorf("capture: monitor %d: %w", i, err)
	}
	m, ok := Find(f.Screens, i)
	if !ok {
		return Shot{}, fmt.Errorf("capture: monitor %d of %d: %w", i, len(f.Screens), ErrNoMonitor)
	}
	var img *image.RGBA
	if f.Draw != nil {
		img = f.Draw(m)
	} else {
		img = image.NewRGBA(image.Rect(0, 0, m.Bounds.Dx(), m.Bounds.Dy()))
		for p := range img.Pix {
			img.Pix[p] = 0x80
		}
	}
	f.mu.Lock()
	f.taken = append(f.taken, i)
	f.mu.Unlock()
	return Shot{Monitor: m, Image: img}, nil
}

// Taken returns the monitors captured so far, in order.
func (f *Fixed) Taken() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]int(nil), f.taken...)
}
