package jpegfit

import (
	"image"
	"runtime"
	"sync"
)

// boxReduce averages k×k blocks of src into one pixel each; blocks cut by
// the right or bottom edge average the pixels they hold. It makes the
// probe whose encode estimates the scale (estimateScale) and the integer
// pre-shrink of large reductions (resize). Rows of blocks are split across
// GOMAXPROCS goroutines.
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
				for bx := range w {
					block := row[bx*k*4 : min(bx*k+k, sw)*4]
					var r, g, b uint32
					for i := 0; i+3 < len(block); i += 4 {
						p := block[i : i+3 : i+3]
						r += uint32(p[0])
						g += uint32(p[1])
						b += uint32(p[2])
					}
					s := sums[bx*3 : bx*3+3 : bx*3+3]
					s[0] += r
					s[1] += g
					s[2] += b
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
