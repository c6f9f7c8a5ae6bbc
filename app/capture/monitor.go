package capture

import (
	"context"
	"errors"
	"image"
	"strconv"

	"yui/app/permission"
)

// Monitor is one display.
type Monitor struct {
	Index  int             // the monitor number
	Label  string          // RandR name, or "monitor N"
	Bounds image.Rectangle // absolute root-window pixels
}

// Shot is one captured monitor.
type Shot struct {
	Monitor Monitor
	Image   *image.RGBA // origin at (0,0), the monitor's size
}

// Source lists monitors and captures one with a grant.
type Source interface {
	// Monitors lists the monitors in number order.
	Monitors() ([]Monitor, error)
	// Capture uses up g and captures the monitor it names. It fails with
	// permission.ErrNoGrant (nothing captured) for a nil, zero or used
	// grant and with ErrNoMonitor for a monitor that does not exist.
	Capture(ctx context.Context, g *permission.Grant) (Shot, error)
}

// ErrNoMonitor is a monitor number that does not exist.
var ErrNoMonitor = errors.New("capture: no such monitor")

// defaultLabel is the label of a monitor without a RandR name.
func defaultLabel(i int) string { return "monitor " + strconv.Itoa(i) }

// Find returns the monitor numbered i.
func Find(ms []Monitor, i int) (Monitor, bool) {
	for _, m := range ms {
		if m.Index == i {
			return m, true
		}
	}
	return Monitor{}, false
}

// Containing returns the number of the monitor that holds the largest part
// of r (its centre breaks ties towards the first), or -1 when r is on none.
func Containing(ms []Monitor, r image.Rectangle) int {
	best, area := -1, 0
	for _, m := range ms {
		in := m.Bounds.Intersect(r)
		if a := in.Dx() * in.Dy(); a > area {
			best, area = m.Index, a
		}
	}
	if best < 0 && r.Empty() {
		for _, m := range ms {
			if r.Min.In(m.Bounds) {
				return m.Index
			}
		}
	}
	return best
}
