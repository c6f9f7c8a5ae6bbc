package jpegfit

import (
	"image"
	"runtime"
	"sync"
)

// Fixed-point precision of the resampling weights.
const (
	weightBits = 14
	weightOne  = 1 << weightBits
)

// resize returns src scaled down to w×h. src must be opaque; the result is
// opaque. When w×h equals the size of src, src itself is returned.
//
// Large reductions first average k×k blocks (k the integer part of the
// smaller inverse scale), then a separable Catmull-Rom pass covers the rest,
// whose scale is then above one half, so every output pixel reads at most
// eight source pixels per axis. Rows are split across GOMAXPROCS goroutines.
func resize(src *image.RGBA, w, h int) *image.RGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	if w == sw && h == sh {
		return src
	}
	if k := min(sw/w, sh/h); k >= 2 {
		src = boxReduce(src, k)
		sw, sh = src.Rect.Dx(), src.Rect.Dy()
		if w == sw && h == sh {
			return src
		}
	}
	horizontal := weightsFor(sw, w)
	tmp := image.NewRGBA(image.Rect(0, 0, w, sh))
	parallelRows(sh, func(y0, y1 int) { resampleRows(tmp, src, horizontal, y0, y1) })
	vertical := weightsFor(sh, h)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	parallelRows(h, func(y0, y1 int) { resampleColumns(dst, tmp, vertical, y0, y1) })
	return dst
}

// parallelRows calls fn on disjoint row ranges that cover [0, rows), from up
// to GOMAXPROCS goroutines, and returns when all have finished.
func parallelRows(rows int, fn func(y0, y1 int)) {
	workers := min(runtime.GOMAXPROCS(0), max(rows/64, 1))
	if workers <= 1 {
		fn(0, rows)
		return
	}
	var wg sync.WaitGroup
	for i := range workers {
		y0, y1 := rows*i/workers, rows*(i+1)/workers
		wg.Go(func() { fn(y0, y1) })
	}
	wg.Wait()
}

// taps holds, for every output coordinate, the first source index and n
// fixed-point weights that sum to weightOne.
type taps struct {
	n      int
	starts []int
	w      []int32
}

// weightsFor builds Catmull-Rom taps that map srcLen samples onto dstLen
// (dstLen ≤ srcLen), widening the kernel by the reduction factor so it
// filters as it shrinks. Edge samples repeat past the border.
func weightsFor(srcLen, dstLen int) taps {
	scale := float64(dstLen) / float64(srcLen)
	support := 2 / scale
	span := int(2*support) + 2
	n := min(span, srcLen)
	t := taps{n: n, starts: make([]int, dstLen), w: make([]int32, dstLen*n)}
	fw := make([]float64, n)
	for x := range dstLen {
		centre := (float64(x)+0.5)/scale - 0.5
		first := int(centre-support) + 1
		if centre-support < 0 {
			first = int(centre - support)
		}
		start := min(max(first, 0), max(srcLen-n, 0))
		t.starts[x] = start
		clear(fw)
		sum := 0.0
		for i := first; i < first+span; i++ {
			v := catmullRom((float64(i) - centre) * scale)
			if v == 0 {
				continue
			}
			j := min(max(i, 0), srcLen-1) - start
			fw[j] += v
			sum += v
		}
		row := t.w[x*n : (x+1)*n]
		total := int32(0)
		peak := 0
		for j := range n {
			row[j] = int32(fw[j]/sum*weightOne + 0.5)
			if fw[j] < 0 {
				row[j] = -int32(-fw[j]/sum*weightOne + 0.5)
			}
			total += row[j]
			if row[j] > row[peak] {
				peak = j
			}
		}
		row[peak] += weightOne - total
	}
	return t
}

// catmullRom is the Catmull-Rom cubic (B=0, C=0.5) with support [-2, 2].
func catmullRom(x float64) float64 {
	if x < 0 {
		x = -x
	}
	switch {
	case x < 1:
		return (1.5*x-2.5)*x*x + 1
	case x < 2:
		return ((-0.5*x+2.5)*x-4)*x + 2
	}
	return 0
}

// resampleRows filters rows [y0, y1) of src horizontally into dst.
func resampleRows(dst, src *image.RGBA, t taps, y0, y1 int) {
	w := dst.Rect.Dx()
	for y := y0; y < y1; y++ {
		in := src.Pix[y*src.Stride : y*src.Stride+src.Rect.Dx()*4]
		out := dst.Pix[y*dst.Stride : y*dst.Stride+w*4]
		for x := range w {
			ws := t.w[x*t.n : (x+1)*t.n]
			p := in[t.starts[x]*4:]
			var r, g, b int32
			for j, wt := range ws {
				px := p[j*4 : j*4+3 : j*4+3]
				r += wt * int32(px[0])
				g += wt * int32(px[1])
				b += wt * int32(px[2])
			}
			o := out[x*4 : x*4+4 : x*4+4]
			o[0], o[1], o[2], o[3] = clampWeighted(r), clampWeighted(g), clampWeighted(b), 0xff
		}
	}
}

// resampleColumns filters src vertically into rows [y0, y1) of dst.
func resampleColumns(dst, src *image.RGBA, t taps, y0, y1 int) {
	width := dst.Rect.Dx() * 4
	acc := make([]int32, width)
	for y := y0; y < y1; y++ {
		clear(acc)
		ws := t.w[y*t.n : (y+1)*t.n]
		for j, wt := range ws {
			if wt == 0 {
				continue
			}
			row := src.Pix[(t.starts[y]+j)*src.Stride:]
			row = row[:width]
			for i, v := range row {
				acc[i] += wt * int32(v)
			}
		}
		out := dst.Pix[y*dst.Stride : y*dst.Stride+width]
		for i := 0; i < width; i += 4 {
			o := out[i : i+4 : i+4]
			a := acc[i : i+3 : i+3]
			o[0], o[1], o[2], o[3] = clampWeighted(a[0]), clampWeighted(a[1]), clampWeighted(a[2]), 0xff
		}
	}
}

// clampWeighted turns a fixed-point weighted sum back into a byte.
func clampWeighted(v int32) uint8 {
	v = (v + weightOne/2) >> weightBits
	return uint8(min(max(v, 0), 255))
}

// boxReduce averages k×k blocks of src into one pixel each; blocks cut by
// the right or bottom edge average the pixels they hold.
func boxReduce(src *image.RGBA, k int) *image.RGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	w, h := (sw+k-1)/k, (sh+k-1)/k
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	parallelRows(h, func(y0, y1 int) {
		sums := make([]uint32, w*3)
		for y := y0; y < y1; y++ {
			clear(sums)
			top, bottom := y*k, min(y*k+k, sh)
			for sy := top; sy < bottom; sy++ {
				row := src.Pix[sy*src.Stride : sy*src.Stride+sw*4]
				for x := range sw {
					s := sums[x/k*3 : x/k*3+3 : x/k*3+3]
					p := row[x*4 : x*4+3 : x*4+3]
					s[0] += uint32(p[0])
					s[1] += uint32(p[1])
					s[2] += uint32(p[2])
				}
			}
			out := dst.Pix[y*dst.Stride : y*dst.Stride+w*4]
			rows := uint32(bottom - top)
			for x := range w {
				count := rows * uint32(min(x*k+k, sw)-x*k)
				s := sums[x*3 : x*3+3 : x*3+3]
				o := out[x*4 : x*4+4 : x*4+4]
				o[0] = uint8((s[0] + count/2) / count)
				o[1] = uint8((s[1] + count/2) / count)
				o[2] = uint8((s[2] + count/2) / count)
				o[3] = 0xff
			}
		}
	})
	return dst
}
