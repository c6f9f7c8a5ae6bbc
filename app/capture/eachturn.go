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
// RequestEachTurn and the capture, its pixels as captured (the fitter
// takes them from memory: no PNG encode and decode on the way). errors.Is(err,
// permission.ErrOff) and permission.ErrDenied mean "no screenshot this
// turn" rather than a failure. The core wraps it as session.Options.
// Screenshot:
//
//	func() (session.TurnScreenshot, bool) {
//		shot, err := capture.EachTurn(ctx, gate, src, body().Monitor)
//		if err != nil { return session.TurnScreenshot{}, false } // log unless ErrOff
//		return session.TurnScreenshot{Monitor: shot.Monitor.Index, Label: shot.Monitor.Label, Pixels: shot.Image}, true
//	}
func EachTurn(ctx context.Context, gate EachTurnGate, src Source, monitor int) (Shot, error) {
	g, err := gate.RequestEachTurn(monitor)
	if err != nil {
		return Shot{}, fmt.Errorf("capture: per-turn screenshot: %w", err)
	}
	shot, err := src.Capture(ctx, g)
	if err != nil {
		return Shot{}, fmt.Errorf("capture: per-turn screenshot: %w", err)
	}
	return shot, nil
}
