package main

import (
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
)

// reference writes the image at in resized to w×h by an exact separable
// Lanczos-3 resample (kernel widened by the reduction factor, float64
// throughout, no pre-shrink, taps outside the image dropped and the rest
// renormalised): the ideal downscale each tool's output is scored
// against. It is written here, not taken from imaging or libvips, so that
// neither contender scores against its own resampler.
func reference(w, h int, in, out string) error {
	img, err := load(in)
	if err != nil {
		return err
	}
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 || w > sw || h > sh {
		return fmt.Errorf("ref: %dx%d is not a reduction of %dx%d", w, h, sw, sh)
	}
	src := make([]float64, sw*sh*3)
	for y := range sh {
		for x := range sw {
			r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			i := (y*sw + x) * 3
			src[i], src[i+1], src[i+2] = float64(r)/257, float64(g)/257, float64(bl)/257
		}
	}
	// Horizontal: sw×sh → w×sh; vertical: w×sh → w×h.
	tmp := make([]float64, w*sh*3)
	hw := lanczosTaps(sw, w)
	for y := range sh {
		for x := range w {
			var acc [3]float64
			for _, t := range hw[x] {
				i := (y*sw + t.index) * 3
				acc[0] += src[i] * t.weight
				acc[1] += src[i+1] * t.weight
				acc[2] += src[i+2] * t.weight
			}
			copy(tmp[(y*w+x)*3:], acc[:])
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	vw := lanczosTaps(sh, h)
	for y := range h {
		for x := range w {
			var acc [3]float64
			for _, t := range vw[y] {
				i := (t.index*w + x) * 3
				acc[0] += tmp[i] * t.weight
				acc[1] += tmp[i+1] * t.weight
				acc[2] += tmp[i+2] * t.weight
			}
			p := dst.Pix[y*dst.Stride+x*4:]
			p[0], p[1], p[2], p[3] = toByte(acc[0]), toByte(acc[1]), toByte(acc[2]), 0xff
		}
	}
	f, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("ref: %w", err)
	}
	if err := png.Encode(f, dst); err != nil {
		f.Close()
		return fmt.Errorf("ref: encode %s: %w", out, err)
	}
	return f.Close()
}

type tap struct {
	index  int
	weight float64
}

// lanczosTaps maps srcLen samples onto dstLen with Lanczos-3 widened by
// srcLen/dstLen, pixel centres aligned.
func lanczosTaps(srcLen, dstLen int) [][]tap {
	scale := float64(srcLen) / float64(dstLen)
	support := 3 * scale
	out := make([][]tap, dstLen)
	for x := range dstLen {
		centre := (float64(x)+0.5)*scale - 0.5
		lo := max(int(math.Ceil(centre-support)), 0)
		hi := min(int(math.Floor(centre+support)), srcLen-1)
		sum := 0.0
		for i := lo; i <= hi; i++ {
			if v := lanczos3((float64(i) - centre) / scale); v != 0 {
				out[x] = append(out[x], tap{i, v})
				sum += v
			}
		}
		for i := range out[x] {
			out[x][i].weight /= sum
		}
	}
	return out
}

func lanczos3(x float64) float64 {
	x = math.Abs(x)
	switch {
	case x == 0:
		return 1
	case x < 3:
		px := math.Pi * x
		return 3 * math.Sin(px) * math.Sin(px/3) / (px * px)
	}
	return 0
}

func toByte(v float64) uint8 { return uint8(min(max(math.Round(v), 0), 255)) }
