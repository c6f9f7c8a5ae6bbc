package capture

import (
	"context"
	"fmt"

	"yui/app/permission"
)

// EachTurnGate grants per-turn captures (permission.Gate).
type EachTurnGate interface {
	RequestEachTurn(monitor int) (*permission.Grant, error)
}

// EachTurn takes the per-turn screenshot of monitor: the gate's
// RequestEachTurn, the capture, and PNG bytes. errors.Is(err,
// permission.ErrOff) and permission.ErrDenied mean "no screenshot this
// turn" rather than a failure. The core wraps it as session.Options.
// Screenshot:
//
//	func() (session.TurnScreenshot, bool) {
//		m, png, err := capture.EachTurn(ctx, gate, src, body().Monitor)
//		if err != nil { return session.TurnScreenshot{}, false } // log unless ErrOff
//		return session.TurnScreenshot{Monitor: m.Index, Label: m.Label, Data: png}, true
//	}
func EachTurn(ctx context.Context, gate EachTurnGate, src Source, monitor int) (Monitor, []byte, error) {
	g, err := gate.RequestEachTurn(monitor)
	if err != nil {
		return Monitor{}, nil, fmt.Errorf("capture: per-turn screenshot: %w", err)
	}
	shot, err := src.Capture(ctx, g)
	if err != nil {
		return Monitor{}, nil, fmt.Errorf("capture: per-turn screenshot: %w", err)
	}
	b, err := shot.PNG()
	if err != nil {
		return Monitor{}, nil, fmt.Errorf("capture: per-turn screenshot: %w", err)
	}
	return shot.Monitor, b, nil
}
