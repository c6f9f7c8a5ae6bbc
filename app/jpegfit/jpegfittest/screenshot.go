// Package jpegfittest generates deterministic screenshot-like and photo-like
// images for the tests and benchmarks of package jpegfit.
//
// Every function is pure: the same arguments give the same pixels, and the
// functions are safe to call from any goroutine.
package jpegfittest

import (
	"image"
	"math/rand/v2"
)

// Screenshot draws a desktop-like picture of w×h pixels: a gradient
// wallpaper, windows with flat title bars, lines of text-like strokes,
// coloured icons and a noisy photo pane. seed picks the layout.
func Screenshot(w, h int, seed uint64) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	wallpaper(img, rng)
	windows := 2 + w*h/(900*700)
	if windows > 9 {
		windows = 9
	}
	for range windows {
		window(img, rng)
	}
	return img
}

// wallpaper fills img with a diagonal two-colour gradient.
func wallpaper(img *image.RGBA, rng *rand.Rand) {
	b := img.Bounds()
	a := randColour(rng)
	c := randColour(rng)
	span := b.Dx() + b.Dy()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):]
		for x := 0; x < b.Dx(); x++ {
			t := (x + y) * 256 / max(span, 1)
			o := x * 4
			row[o] = uint8((int(a[0])*(256-t) + int(c[0])*t) >> 8)
			row[o+1] = uint8((int(a[1])*(256-t) + int(c[1])*t) >> 8)
			row[o+2] = uint8((int(a[2])*(256-t) + int(c[2])*t) >> 8)
			row[o+3] = 0xff
		}
	}
}

// window draws one application window at a random place: title bar, body,
// text lines, a few icons and sometimes a photo pane.
func window(img *image.RGBA, rng *rand.Rand) {
	b := img.Bounds()
	ww := b.Dx()/4 + rng.IntN(b.Dx()/2+1)
	wh := b.Dy()/4 + rng.IntN(b.Dy()/2+1)
	x0 := rng.IntN(b.Dx() - ww + 1)
	y0 := rng.IntN(b.Dy() - wh + 1)
	win := image.Rect(x0, y0, x0+ww, y0+wh)
	dark := rng.IntN(3) == 0
	body := [3]uint8{250, 250, 250}
	ink := [3]uint8{30, 30, 40}
	if dark {
		body = [3]uint8{32, 34, 40}
		ink = [3]uint8{220, 220, 210}
	}
	fill(img, win, [3]uint8{90, 90, 100})
	fill(img, win.Inset(1), body)
	bar := min(24, max(wh/10, 2))
	fill(img, image.Rect(x0+1, y0+1, x0+ww-1, y0+bar), randColour(rng))
	content := image.Rect(x0+8, y0+bar+6, x0+ww-8, y0+wh-6)
	if content.Empty() {
		return
	}
	if rng.IntN(2) == 0 && content.Dx() > 64 && content.Dy() > 64 {
		pw := content.Dx() / 3
		ph := content.Dy() / 2
		pane := image.Rect(content.Max.X-pw, content.Min.Y, content.Max.X, content.Min.Y+ph)
		photo(img, pane, rng)
		content.Max.X -= pw + 8
	}
	text(img, content, ink, rng)
	for range 4 {
		s := 12 + rng.IntN(20)
		ix := content.Min.X + rng.IntN(max(content.Dx()-s, 1))
		iy := content.Max.Y - s - rng.IntN(max(content.Dy()/4, 1))
		fill(img, image.Rect(ix, iy, ix+s, iy+s).Intersect(content), randColour(rng))
	}
}

// text draws lines of word-like groups of glyph strokes inside r.
func text(img *image.RGBA, r image.Rectangle, ink [3]uint8, rng *rand.Rand) {
	const lineH, glyphH = 16, 10
	for y := r.Min.Y; y+lineH <= r.Max.Y; y += lineH {
		if rng.IntN(6) == 0 {
			continue
		}
		end := r.Min.X + r.Dx()*(40+rng.IntN(61))/100
		for x := r.Min.X; x+8 <= end; {
			word := 2 + rng.IntN(8)
			for g := 0; g < word && x+8 <= end; g++ {
				glyph(img, x, y+3, 6, glyphH, ink, rng)
				x += 7
			}
			x += 5
		}
	}
}

// glyph draws two to four strokes in a gw×gh cell at (x, y).
func glyph(img *image.RGBA, x, y, gw, gh int, ink [3]uint8, rng *rand.Rand) {
	for range 2 + rng.IntN(3) {
		switch rng.IntN(3) {
		case 0: // vertical stem
			sx := x + rng.IntN(gw)
			top := y + rng.IntN(gh/2)
			fill(img, image.Rect(sx, top, sx+1, y+gh), ink)
		case 1: // horizontal bar
			sy := y + rng.IntN(gh)
			fill(img, image.Rect(x, sy, x+gw-1, sy+1), ink)
		default: // diagonal
			for i := range gh / 2 {
				setPixel(img, x+i*2*gw/gh, y+gh/2+i, ink)
			}
		}
	}
}

// photo fills r with a smooth gradient, soft blobs and per-pixel noise.
func photo(img *image.RGBA, r image.Rectangle, rng *rand.Rand) {
	r = r.Intersect(img.Bounds())
	a, c := randColour(rng), randColour(rng)
	cx := r.Min.X + rng.IntN(max(r.Dx(), 1))
	cy := r.Min.Y + rng.IntN(max(r.Dy(), 1))
	rad := max(r.Dx(), r.Dy())/3 + 1
	noise := rand.New(rand.NewPCG(rng.Uint64(), 1))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[img.PixOffset(0, y):]
		for x := r.Min.X; x < r.Max.X; x++ {
			t := (y - r.Min.Y) * 256 / max(r.Dy(), 1)
			dx, dy := x-cx, y-cy
			blob := 0
			if d2 := dx*dx + dy*dy; d2 < rad*rad {
				blob = 60 - 60*d2/(rad*rad)
			}
			n := int(noise.Uint32()&31) - 16
			o := x * 4
			for k := range 3 {
				v := (int(a[k])*(256-t)+int(c[k])*t)>>8 + blob + n
				row[o+k] = clamp8(v)
			}
			row[o+3] = 0xff
		}
	}
}

func fill(img *image.RGBA, r image.Rectangle, c [3]uint8) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
		for o := 0; o < len(row); o += 4 {
			row[o], row[o+1], row[o+2], row[o+3] = c[0], c[1], c[2], 0xff
		}
	}
}

func setPixel(img *image.RGBA, x, y int, c [3]uint8) {
	if !(image.Point{x, y}).In(img.Bounds()) {
		return
	}
	o := img.PixOffset(x, y)
	img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = c[0], c[1], c[2], 0xff
}

func randColour(rng *rand.Rand) [3]uint8 {
	return [3]uint8{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256))}
}

func clamp8(v int) uint8 {
	return uint8(min(max(v, 0), 255))
}
