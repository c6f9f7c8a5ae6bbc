package place

import "image"

// Margin is the gap kept between a placed window and the monitor's edges,
// so the pet does not sit on a panel's edge.
const Margin = 16

// Gap is the space left between two characters placed side by side.
const Gap = 8

// Primary is the primary monitor of mons (the first); the zero rectangle
// when there is none.
func Primary(mons []image.Rectangle) image.Rectangle {
	for _, m := range mons {
		if !m.Empty() {
			return m
		}
	}
	return image.Rectangle{}
}

// BottomRight is the top-left corner that puts a window of size at the
// bottom-right of monitor m, Margin pixels in from its edges (or at m's
// top-left when the window is larger than m).
func BottomRight(m image.Rectangle, size image.Point) image.Point {
	return inside(image.Pt(m.Max.X-Margin-size.X, m.Max.Y-Margin-size.Y), size, m)
}

// inside moves a window at p of size into m, preferring its top-left edge
// when it cannot fit.
func inside(p, size image.Point, m image.Rectangle) image.Point {
	if p.X+size.X > m.Max.X {
		p.X = m.Max.X - size.X
	}
	if p.Y+size.Y > m.Max.Y {
		p.Y = m.Max.Y - size.Y
	}
	if p.X < m.Min.X {
		p.X = m.Min.X
	}
	if p.Y < m.Min.Y {
		p.Y = m.Min.Y
	}
	return p
}

// home is the monitor that holds the largest part of r, or, when r is on
// none, the one nearest to r's centre; ok is false without monitors.
func home(r image.Rectangle, mons []image.Rectangle) (image.Rectangle, bool) {
	best, area := image.Rectangle{}, 0
	for _, m := range mons {
		in := m.Intersect(r)
		if a := in.Dx() * in.Dy(); a > area {
			best, area = m, a
		}
	}
	if area > 0 {
		return best, true
	}
	c := image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
	bestD := -1
	for _, m := range mons {
		if m.Empty() {
			continue
		}
		if d := dist2(c, m); bestD < 0 || d < bestD {
			best, bestD = m, d
		}
	}
	return best, bestD >= 0
}

// dist2 is the squared distance from p to the nearest point of m.
func dist2(p image.Point, m image.Rectangle) int {
	dx, dy := 0, 0
	switch {
	case p.X < m.Min.X:
		dx = m.Min.X - p.X
	case p.X >= m.Max.X:
		dx = p.X - m.Max.X + 1
	}
	switch {
	case p.Y < m.Min.Y:
		dy = m.Min.Y - p.Y
	case p.Y >= m.Max.Y:
		dy = p.Y - m.Max.Y + 1
	}
	return dx*dx + dy*dy
}

// Restore is where a window saved at p (of size) is shown on the monitors
// present now: wholly on the monitor that holds most of it (or the nearest
// one, when it is on none — a monitor was unplugged, the resolution
// shrank). Without monitors p is returned unchanged.
func Restore(p, size image.Point, mons []image.Rectangle) image.Point {
	m, ok := home(image.Rectangle{Min: p, Max: p.Add(size)}, mons)
	if !ok {
		return p
	}
	return inside(p, size, m)
}

// Visible is how many pixels of r the monitors show (monitors do not
// overlap).
func Visible(r image.Rectangle, mons []image.Rectangle) int {
	n := 0
	for _, m := range mons {
		in := m.Intersect(r)
		n += in.Dx() * in.Dy()
	}
	return n
}

// KeepThird is where a window dragged to p is allowed to stay, body being
// the character's box inside the window (window coordinates): p itself
// while at least a third of her box is on the monitors and her head is not
// above the top of the monitor holding most of her, otherwise the nearest
// position that shows a third of her on the monitor nearest to her. She
// may hang off a monitor's left, right or bottom edge by up to two thirds
// of her width or height, never off the top. Without monitors p is
// returned unchanged.
func KeepThird(p image.Point, body image.Rectangle, mons []image.Rectangle) image.Point {
	size := body.Size()
	at := p.Add(body.Min) // her box's top-left on the screen
	r := image.Rectangle{Min: at, Max: at.Add(size)}
	area := size.X * size.Y
	if len(mons) == 0 || area <= 0 {
		return p
	}
	if Visible(r, mons)*3 >= area && at.Y >= topOf(r, mons) {
		return p
	}
	m, ok := home(r, mons)
	if !ok {
		return p
	}
	third := image.Pt((size.X+2)/3, (size.Y+2)/3)
	// Hanging sideways: her whole height on the monitor.
	a := image.Pt(clamp(at.X, m.Min.X-size.X+third.X, m.Max.X-third.X), clamp(at.Y, m.Min.Y, m.Max.Y-size.Y))
	// Hanging off the bottom: her whole width on the monitor.
	b := image.Pt(clamp(at.X, m.Min.X, m.Max.X-size.X), clamp(at.Y, m.Min.Y, m.Max.Y-third.Y))
	if d2(a, at) <= d2(b, at) {
		return a.Sub(body.Min)
	}
	return b.Sub(body.Min)
}

// topOf is the top edge of the monitor holding most of r (r's own top
// when it is on none).
func topOf(r image.Rectangle, mons []image.Rectangle) int {
	m, ok := home(r, mons)
	if !ok {
		return r.Min.Y
	}
	return m.Min.Y
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return max(lo, min(v, hi))
}

func d2(a, b image.Point) int {
	d := a.Sub(b)
	return d.X*d.X + d.Y*d.Y
}

// Beside is where a new character's window (of size) stands: at the
// bottom-right of the primary monitor, or, when other windows (taken)
// cover that spot, beside them — the first free spot going left along the
// bottom row, then the rows above; every spot on every monitor taken, the
// one overlapping the others least.
func Beside(size image.Point, mons []image.Rectangle, taken []image.Rectangle) image.Point {
	prim := Primary(mons)
	if prim.Empty() {
		return image.Point{}
	}
	ordered := append([]image.Rectangle{prim}, mons...)
	var best image.Point
	bestCover := -1
	for _, m := range ordered {
		if m.Empty() {
			continue
		}
		start := BottomRight(m, size)
		for y := start.Y; y >= m.Min.Y; y -= size.Y + Gap {
			for x := start.X; x >= m.Min.X; x -= size.X + Gap {
				p := image.Pt(x, y)
				c := cover(image.Rectangle{Min: p, Max: p.Add(size)}, taken)
				if c == 0 {
					return p
				}
				if bestCover < 0 || c < bestCover {
					best, bestCover = p, c
				}
			}
		}
	}
	if bestCover < 0 {
		return BottomRight(prim, size)
	}
	return best
}

// cover is how many pixels of r the taken rectangles cover (overlaps
// between them counted twice; enough to rank spots).
func cover(r image.Rectangle, taken []image.Rectangle) int {
	n := 0
	for _, t := range taken {
		in := t.Intersect(r)
		n += in.Dx() * in.Dy()
	}
	return n
}

// Away is where a window of size opens so that no pet (pets) covers it:
// centred on the primary monitor when that spot is free, else the free
// spot nearest to the centre of any monitor (primary first), tried on a
// grid of 32 px; when none is free, the spot the pets cover least.
func Away(size image.Point, mons []image.Rectangle, pets []image.Rectangle) image.Point {
	prim := Primary(mons)
	if prim.Empty() {
		return image.Point{}
	}
	const step = 32
	var best image.Point
	bestCover, bestD := -1, 0
	for i, m := range append([]image.Rectangle{prim}, mons...) {
		if i > 0 && m == prim || m.Empty() {
			continue
		}
		centre := inside(image.Pt(m.Min.X+(m.Dx()-size.X)/2, m.Min.Y+(m.Dy()-size.Y)/2), size, m)
		if i == 0 && cover(image.Rectangle{Min: centre, Max: centre.Add(size)}, pets) == 0 {
			return centre
		}
		for y := m.Min.Y; y+size.Y <= m.Max.Y || y == m.Min.Y; y += step {
			for x := m.Min.X; x+size.X <= m.Max.X || x == m.Min.X; x += step {
				p := inside(image.Pt(x, y), size, m)
				c := cover(image.Rectangle{Min: p, Max: p.Add(size)}, pets)
				d := d2(p, centre)
				if bestCover < 0 || c < bestCover || c == bestCover && d < bestD {
					best, bestCover, bestD = p, c, d
				}
				if x+size.X > m.Max.X {
					break
				}
			}
			if y+size.Y > m.Max.Y {
				break
			}
		}
		if bestCover == 0 {
			return best
		}
	}
	return best
}

// BesideClearOf is Beside for a window that must also keep clear of avoid
// (the settings window a new character is saved from: issue 21, she landed
// over its Save and Revert). It is Beside's spot when that covers no part
// of avoid; otherwise, of the spots on a 32 px grid of each monitor (inside
// Margin, its far edges included) and the spots just beside each avoid
// rectangle, the one that covers the least of avoid, then the least of
// taken, then stands lowest (her feet on the bottom row, as Beside's
// spots), then nearest the right edge of Beside's first spot (the
// bottom-right of the primary monitor).
func BesideClearOf(size image.Point, mons []image.Rectangle, taken, avoid []image.Rectangle) image.Point {
	first := Beside(size, mons, taken)
	if cover(image.Rectangle{Min: first, Max: first.Add(size)}, avoid) == 0 {
		return first
	}
	prim := Primary(mons)
	home := BottomRight(prim, size)
	best, bestKey := first, [4]int{-1}
	try := func(p image.Point, m image.Rectangle) {
		p = inside(p, size, m.Inset(Margin))
		r := image.Rectangle{Min: p, Max: p.Add(size)}
		key := [4]int{cover(r, avoid), cover(r, taken), abs(home.Y - p.Y), abs(home.X - p.X)}
		if bestKey[0] < 0 || less(key, bestKey) {
			best, bestKey = p, key
		}
	}
	const step = 32
	for i, m := range append([]image.Rectangle{prim}, mons...) {
		if i > 0 && m == prim || m.Empty() {
			continue
		}
		in := m.Inset(Margin)
		xs := []int{in.Max.X - size.X}
		for x := in.Min.X; x < in.Max.X-size.X; x += step {
			xs = append(xs, x)
		}
		ys := []int{in.Max.Y - size.Y}
		for y := in.Min.Y; y < in.Max.Y-size.Y; y += step {
			ys = append(ys, y)
		}
		for _, a := range avoid {
			xs = append(xs, a.Max.X+Gap, a.Min.X-Gap-size.X)
			ys = append(ys, a.Max.Y+Gap, a.Min.Y-Gap-size.Y)
		}
		for _, y := range ys {
			for _, x := range xs {
				try(image.Pt(x, y), m)
			}
		}
	}
	return best
}

func abs(v int) int { return max(v, -v) }

// less orders keys lexicographically.
func less(a, b [4]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
