package jpegfit

import "image"

// Fixed-point precision of the resampling weights, and the lanes they are
// summed in: the passes keep a pixel's R, G and B in three 21-bit lanes of
// one int64 (R + G<<21 + B<<42) and weight all three with one multiply.
// Sums are exact: with weights of 11 bits whose absolute values sum to at
// most 2 (Catmull-Rom's negative lobes are far smaller), a lane's weighted
// sum stays within ±255·2·2^11 < 2^20, and the top lane within 2^62.
const (
	weightBits = 11
	weightOne  = 1 << weightBits
	laneBits   = 21
)

// shrinkGap is the reduction the Catmull-Rom pass keeps for itself: a
// reduction by F first averages k×k blocks with k = ⌊F/shrinkGap⌋ when
// k ≥ 2, so the cubic still reduces by at least shrinkGap and filters out
// what the box lets through (libvips's vips_resize does the same with its
// default gap of 2). Below 2·shrinkGap the cubic does it all.
const shrinkGap = 2

// resize returns src scaled down to w×h. src must be opaque; the result is
// opaque. When w×h equals the size of src, src itself is returned.
//
// A separable fixed-point (11-bit) Catmull-Rom pass does the reduction,
// its kernel widened by the reduction factor so it filters as it shrinks,
// after an integer box pre-shrink for reductions of 4× and more (see
// shrinkGap). Rows are split across GOMAXPROCS goroutines. The choice of
// this resampler over imaging.Resize(…, imaging.CatmullRom), the same
// filter, is measured in docs/jpegfit.md.
func resize(src *image.RGBA, w, h int) *image.RGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	if w == sw && h == sh {
		return src
	}
	if k := min(sw/w, sh/h) / shrinkGap; k >= 2 {
		src = boxReduce(src, k)
		sw, sh = src.Rect.Dx(), src.Rect.Dy()
	}
	horizontal, vertical := weightsFor(sw, w), weightsFor(sh, h)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	parallelRows(h, func(y0, y1 int) { resampleBand(dst, src, horizontal, vertical, y0, y1) })
	return dst
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
	return trimmed(t, srcLen)
}

// trimmed drops the taps that are zero at the ends of every output's
// window (the span above rounds up by one or two), moving each window's
// start to its first weight that counts.
func trimmed(t taps, srcLen int) taps {
	n := 0
	firsts := make([]int, len(t.starts))
	for x := range t.starts {
		row := t.w[x*t.n : (x+1)*t.n]
		first, last := 0, len(row)-1
		for first < last && row[first] == 0 {
			first++
		}
		for last > first && row[last] == 0 {
			last--
		}
		firsts[x] = first
		n = max(n, last-first+1)
	}
	if n == t.n {
		return t
	}
	out := taps{n: n, starts: make([]int, len(t.starts)), w: make([]int32, len(t.starts)*n)}
	for x, start := range t.starts {
		s := min(start+firsts[x], srcLen-n)
		off := s - start
		copy(out.w[x*n:(x+1)*n], t.w[x*t.n+off:x*t.n+off+n])
		out.starts[x] = s
	}
	return out
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

// pack puts a pixel's r, g and b into the lanes of an int64.
func pack(r, g, b int64) int64 {
	return r | g<<laneBits | b<<(2*laneBits)
}

// unpack splits a weighted sum of packed pixels into its three lanes, each
// rounded back to a byte (0–255, in an int64).
func unpack(s int64) (r, g, b int64) {
	const shift = 64 - laneBits
	r = s << shift >> shift // the low lane, sign-extended
	s = (s - r) >> laneBits
	g = s << shift >> shift
	b = (s - g) >> laneBits
	return toByte(r), toByte(g), toByte(b)
}

// toByte rounds a fixed-point weighted sum back to 0–255.
func toByte(v int64) int64 {
	return min(max((v+weightOne/2)>>weightBits, 0), 255)
}

// resampleBand writes rows [y0, y1) of dst: each source row the band
// needs is filtered horizontally once, into a ring of the last n packed
// rows (n the vertical taps), and each output row is the vertical sum over
// its n ring rows. The band's working set is the ring (n × dst width ×
// 8 bytes), not an intermediate image.
func resampleBand(dst, src *image.RGBA, horizontal, vertical taps, y0, y1 int) {
	w, sw := dst.Rect.Dx(), src.Rect.Dx()
	n := vertical.n
	ring := make([][]int64, n)
	for i := range ring {
		ring[i] = make([]int64, w)
	}
	packed := make([]int64, sw)
	acc := make([]int64, w)
	next := vertical.starts[y0] // the next source row to filter horizontally
	for y := y0; y < y1; y++ {
		first := vertical.starts[y]
		next = max(next, first)
		for ; next < first+n; next++ {
			filterRow(ring[next%n], packed, src, horizontal, next)
		}
		clear(acc)
		for j, wt := range vertical.w[y*n : (y+1)*n] {
			if wt == 0 {
				continue
			}
			in := ring[(first+j)%n][:len(acc)]
			for x, v := range in {
				acc[x] += int64(wt) * v
			}
		}
		out := dst.Pix[y*dst.Stride : y*dst.Stride+w*4]
		for x, v := range acc {
			o := out[x*4 : x*4+4 : x*4+4]
			r, g, b := unpack(v)
			o[0], o[1], o[2], o[3] = uint8(r), uint8(g), uint8(b), 0xff
		}
	}
}

// filterRow filters source row y of src horizontally into out (packed,
// each lane rounded to a byte), using packed (source width) as scratch.
// The tap loop runs without bounds checks.
func filterRow(out, packed []int64, src *image.RGBA, t taps, y int) {
	in := src.Pix[y*src.Stride : y*src.Stride+len(packed)*4]
	for x := range packed {
		p := in[x*4 : x*4+3 : x*4+3]
		packed[x] = pack(int64(p[0]), int64(p[1]), int64(p[2]))
	}
	for x := range out {
		ws := t.w[x*t.n : (x+1)*t.n]
		p := packed[t.starts[x]:][:len(ws)]
		var sum int64
		for j, wt := range ws {
			sum += int64(wt) * p[j]
		}
		out[x] = pack(unpack(sum))
	}
}
