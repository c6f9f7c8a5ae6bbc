package jpegfit

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"
)

// floatCatmullRom is resize's Catmull-Rom pass in float64 with the same
// pixel-centre mapping and edge rule, rounded once at the end: what the
// fixed-point packed lanes must reproduce.
func floatCatmullRom(src *image.RGBA, w, h int) *image.RGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	weights := func(srcLen, dstLen, x int) map[int]float64 {
		scale := float64(dstLen) / float64(srcLen)
		support := 2 / scale
		centre := (float64(x)+0.5)/scale - 0.5
		out := map[int]float64{}
		sum := 0.0
		for i := int(math.Floor(centre - support)); i <= int(math.Ceil(centre+support)); i++ {
			v := catmullRom((float64(i) - centre) * scale)
			out[min(max(i, 0), srcLen-1)] += v
			sum += v
		}
		for k := range out {
			out[k] /= sum
		}
		return out
	}
	tmp := make([]float64, w*sh*3)
	for x := range w {
		ws := weights(sw, w, x)
		for y := range sh {
			for i, wt := range ws {
				p := src.Pix[y*src.Stride+i*4:]
				for c := range 3 {
					tmp[(y*w+x)*3+c] += wt * float64(p[c])
				}
			}
		}
	}
	for i, v := range tmp { // the packed pass rounds between the passes too
		tmp[i] = math.Min(math.Max(math.Round(v), 0), 255)
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		ws := weights(sh, h, y)
		for x := range w {
			var acc [3]float64
			for i, wt := range ws {
				for c := range 3 {
					acc[c] += wt * tmp[(i*w+x)*3+c]
				}
			}
			p := dst.Pix[y*dst.Stride+x*4:]
			for c := range 3 {
				p[c] = uint8(math.Min(math.Max(math.Round(acc[c]), 0), 255))
			}
			p[3] = 0xff
		}
	}
	return dst
}

// TestResizeLanes: the packed fixed-point passes match a float64
// Catmull-Rom within one level per channel (rounding of 11-bit weights),
// on the inputs that stress the lanes most: random noise, a 0/255
// checkerboard (largest overshoot of the negative lobes, both signs in
// neighbouring lanes) and saturated primaries; sizes from tiny (taps
// cover the whole source) to just under the box pre-shrink.
func TestResizeLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	patterns := map[string]func(x, y int) [3]uint8{
		"noise": func(x, y int) [3]uint8 {
			return [3]uint8{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256))}
		},
		"checker": func(x, y int) [3]uint8 {
			v := uint8(255 * ((x + y) % 2))
			return [3]uint8{v, 255 - v, v}
		},
		"primaries": func(x, y int) [3]uint8 {
			return [][3]uint8{{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}, {0, 0, 0}}[(x/3+y)%5]
		},
	}
	sizes := [][4]int{{97, 53, 31, 17}, {5, 5, 3, 2}, {40, 3, 13, 1}, {301, 211, 80, 56}, {64, 64, 63, 33}}
	for name, pat := range patterns {
		for _, sz := range sizes {
			src := image.NewRGBA(image.Rect(0, 0, sz[0], sz[1]))
			for y := range sz[1] {
				for x := range sz[0] {
					c := pat(x, y)
					copy(src.Pix[y*src.Stride+x*4:], []uint8{c[0], c[1], c[2], 0xff})
				}
			}
			got, want := resize(src, sz[2], sz[3]), floatCatmullRom(src, sz[2], sz[3])
			worst := 0
			for i := range got.Pix {
				worst = max(worst, abs(int(got.Pix[i])-int(want.Pix[i])))
			}
			if worst > 1 {
				t.Errorf("%s %dx%d→%dx%d: a channel differs by %d levels from float64, want ≤ 1", name, sz[0], sz[1], sz[2], sz[3], worst)
			}
		}
	}
}

func abs(v int) int { return max(v, -v) }
