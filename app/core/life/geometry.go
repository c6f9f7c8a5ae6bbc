package life

import (
	"image"

	"yui/app/capture"
	"yui/app/core/windows"
)

// Where she goes, in her window's top-left corner (absolute pixels). Her
// feet are the bottom-centre of windows.PetBody.

// The distances of her moves.
const (
	// SpotMargin keeps her body this far from a monitor's edges at a
	// move_to spot.
	SpotMargin = 16
	// PeekShown is how much of her body's width shows while she peeks.
	PeekShown = 72
	// SnapDistance is how near a window's top edge a drop must put her
	// feet to perch her there.
	SnapDistance = 12
)

var (
	petSize = image.Pt(windows.PetWidth, windows.PetHeight)
	bodyBox = windows.PetBody
	// feet is her feet's point inside her window.
	feet = image.Pt((bodyBox.Min.X+bodyBox.Max.X)/2, bodyBox.Max.Y)
)

// feetAt is where her feet are with her window at at.
func feetAt(at image.Point) image.Point { return at.Add(feet) }

// bodyAt is her body's box with her window at at.
func bodyAt(at image.Point) image.Rectangle { return bodyBox.Add(at) }

// monitorOf is the index of the monitor holding most of her body at at
// (0 when none does or none is known).
func monitorOf(ms []capture.Monitor, at image.Point) int {
	if i := capture.Containing(ms, bodyAt(at)); i >= 0 {
		return i
	}
	return 0
}

// monitorAt is the monitor holding the point p, else the one holding her
// body at at, else the first.
func monitorAt(ms []capture.Monitor, p, at image.Point) (capture.Monitor, bool) {
	for _, m := range ms {
		if p.In(m.Bounds) {
			return m, true
		}
	}
	i := capture.Containing(ms, bodyAt(at))
	if i >= 0 {
		if m, ok := capture.Find(ms, i); ok {
			return m, true
		}
	}
	if len(ms) > 0 {
		return ms[0], true
	}
	return capture.Monitor{}, false
}

// clampX keeps her whole body inside b horizontally.
func clampX(x int, b image.Rectangle) int {
	return min(max(x, b.Min.X-bodyBox.Min.X), b.Max.X-bodyBox.Max.X)
}

// ground is where she stands on m's bottom edge near x: her window's
// bottom on the edge, as where she is first placed.
func ground(m capture.Monitor, x int) image.Point {
	return image.Pt(clampX(x, m.Bounds), m.Bounds.Max.Y-petSize.Y)
}

// spot is a move_to spot on m.
func spot(m capture.Monitor, name string) image.Point {
	b := m.Bounds.Inset(SpotMargin)
	w, h := bodyBox.Dx(), bodyBox.Dy()
	var body image.Point // her body's top-left
	switch name {
	case "top-left":
		body = b.Min
	case "top-right":
		body = image.Pt(b.Max.X-w, b.Min.Y)
	case "bottom-left":
		return ground(m, m.Bounds.Min.X)
	case "bottom-right":
		return ground(m, m.Bounds.Max.X)
	default: // center
		body = image.Pt((b.Min.X+b.Max.X-w)/2, (b.Min.Y+b.Max.Y-h)/2)
	}
	return body.Sub(bodyBox.Min)
}

// peek is where she peeks in from m's side edge, at the height she is
// (kept on the monitor).
func peek(m capture.Monitor, side string, at image.Point) image.Point {
	y := min(max(at.Y, m.Bounds.Min.Y-bodyBox.Min.Y), m.Bounds.Max.Y-petSize.Y)
	if side == "left" {
		return image.Pt(m.Bounds.Min.X-bodyBox.Max.X+PeekShown, y)
	}
	return image.Pt(m.Bounds.Max.X-bodyBox.Min.X-PeekShown, y)
}

// perchAt is where she sits on frame f, dx being her window's left edge
// from the frame's.
func perchAt(f image.Rectangle, dx int) image.Point {
	return image.Pt(f.Min.X+dx, f.Min.Y-feet.Y)
}

// perchDX centres her on frame f, her body kept over it when it is wide
// enough.
func perchDX(f image.Rectangle) int {
	dx := f.Dx()/2 - feet.X
	if f.Dx() >= bodyBox.Dx() {
		dx = min(max(dx, -bodyBox.Min.X), f.Dx()-bodyBox.Max.X)
	}
	return dx
}
