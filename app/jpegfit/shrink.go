package jpegfit

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"math"
)

// Search bounds. The search starts at startQuality; it trades quality
// between lowQuality and highQuality before it changes the scale, and goes
// down to floorQuality only at the smallest size it makes.
const (
	startQuality = 80
	highQuality  = 92
	lowQuality   = 50
	floorQuality = 20

	// minLongSide is the smallest long side the fitter scales an image to
	// (an image already smaller keeps its size).
	minLongSide = 64

	// minJPEGBytes is less than the smallest JPEG image/jpeg writes (its
	// headers and tables alone take more), so a budget under it cannot fit.
	minJPEGBytes = 500

	// goodFill is the share of its budget a fitting encode must use to end
	// the quality search early.
	goodFill = 0.88

	// aimFill is the share of the budget the predictions aim at.
	aimFill = 0.94

	// maxRounds bounds the scale changes, maxSteps the encodes per scale.
	maxRounds = 4
	maxSteps  = 4

	// probePixels is the size of the downscaled probe whose encode
	// estimates the scale; images at most this large start at full size.
	probePixels = 1 << 18
)

// shrunk is one image re-encoded as JPEG.
type shrunk struct {
	data          []byte
	width, height int
	quality       int
}

// shrink re-encodes src as a JPEG of at most budget bytes: the largest
// scale (never above 1, aspect kept) and quality the bounded search finds
// before d passes. It returns ErrTooLarge when even the smallest size at
// floorQuality does not fit.
func shrink(ctx context.Context, src *image.RGBA, budget int, d Deadline) (shrunk, error) {
	return shrinkWith(ctx, src, budget, d, resize)
}

// resizer scales an opaque image down to w×h (resize; the benchmarks pass
// others to compare on the fitter's whole path).
type resizer func(src *image.RGBA, w, h int) *image.RGBA

// shrinkWith is shrink with the resampler rs.
func shrinkWith(ctx context.Context, src *image.RGBA, budget int, d Deadline, rs resizer) (shrunk, error) {
	if budget < minJPEGBytes {
		return shrunk{}, ErrTooLarge
	}
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	minScale := min(1, float64(minLongSide)/float64(max(sw, sh)))
	scale, err := estimateScale(src, budget)
	if err != nil {
		return shrunk{}, err
	}
	scale = max(scale, minScale)
	var best shrunk
	for round := range maxRounds {
		if round > 0 && d.passed() {
			break
		}
		w, h := scaledSize(sw, sh, scale)
		fit, smallest, err := searchQuality(ctx, rs(src, w, h), budget, lowQuality, d)
		if err != nil {
			return shrunk{}, err
		}
		if fit.data == nil {
			if best.data != nil || scale <= minScale || d.passed() {
				break
			}
			next := scale * math.Sqrt(aimFill*float64(budget)/float64(smallest))
			scale = max(min(next, scale*0.95), minScale)
			continue
		}
		if best.data == nil || w*h > best.width*best.height {
			best = fit
		}
		// Go on only when the top quality left a clear underfill that
		// more pixels can use.
		if scale >= 1 || fit.quality < highQuality || float64(len(fit.data)) > 0.6*float64(budget) {
			break
		}
		scale = min(1, scale*math.Sqrt(aimFill*float64(budget)/float64(len(fit.data))))
	}
	if best.data != nil {
		return best, nil
	}
	// Last resort: the smallest size, down to the floor quality (a few
	// encodes of a tiny image, so not bounded by d).
	w, h := scaledSize(sw, sh, minScale)
	fit, _, err := searchQuality(ctx, rs(src, w, h), budget, floorQuality, Deadline{})
	if err != nil {
		return shrunk{}, err
	}
	if fit.data == nil {
		return shrunk{}, ErrTooLarge
	}
	return fit, nil
}

// scaledSize is sw×sh scaled by s, each side at least one pixel and never
// above the source.
func scaledSize(sw, sh int, s float64) (int, int) {
	w := min(max(int(math.Round(float64(sw)*s)), 1), sw)
	h := min(max(int(math.Round(float64(sh)*s)), 1), sh)
	return w, h
}

// estimateScale guesses the scale at which src encodes to about aimFill of
// budget at startQuality, from the bytes per pixel of a box-reduced probe.
func estimateScale(src *image.RGBA, budget int) (float64, error) {
	pixels := src.Rect.Dx() * src.Rect.Dy()
	if pixels <= probePixels {
		return 1, nil
	}
	k := int(math.Ceil(math.Sqrt(float64(pixels) / probePixels)))
	probe := boxReduce(src, k)
	data, err := encode(probe, startQuality, 0)
	if err != nil {
		return 0, err
	}
	probeArea := float64(probe.Rect.Dx() * probe.Rect.Dy())
	perPixel := float64(max(len(data)-minJPEGBytes, 1)) / probeArea
	want := (aimFill*float64(budget) - minJPEGBytes) / perPixel
	return min(1, math.Sqrt(max(want, 1)/float64(pixels))), nil
}

// searchQuality looks for the highest quality in [lo, highQuality] at
// which img fits budget, with at most maxSteps encodes, stopping early once
// d has passed. It returns the fit (data nil when none fitted) and the
// smallest size it saw.
func searchQuality(ctx context.Context, img *image.RGBA, budget, lo int, d Deadline) (shrunk, int, error) {
	var fit shrunk
	var last, other sample
	failAbove := highQuality + 1 // lowest quality known not to fit
	smallest := math.MaxInt
	q := min(max(startQuality, lo), highQuality)
	for range maxSteps {
		if err := ctx.Err(); err != nil {
			return shrunk{}, 0, fmt.Errorf("jpegfit: %w", err)
		}
		data, err := encode(img, q, budget)
		if err != nil {
			return shrunk{}, 0, err
		}
		smallest = min(smallest, len(data))
		other, last = last, sample{quality: q, size: len(data)}
		if len(data) <= budget {
			fit = shrunk{data: data, width: img.Rect.Dx(), height: img.Rect.Dy(), quality: q}
			if q >= highQuality || float64(len(data)) >= goodFill*float64(budget) || d.passed() {
				break
			}
		} else {
			failAbove = q
			if q <= lo || d.passed() {
				break
			}
		}
		next := predictQuality(last, other, int(aimFill*float64(budget)))
		floor := lo
		if fit.data != nil {
			floor = fit.quality + 1
		}
		next = min(max(next, floor), failAbove-1, highQuality)
		if next == q || next < floor {
			break
		}
		q = next
	}
	if fit.data == nil && last.quality > lo && !d.passed() {
		// The steps ran out above lo: lo decides whether anything fits.
		data, err := encode(img, lo, budget)
		if err != nil {
			return shrunk{}, 0, err
		}
		smallest = min(smallest, len(data))
		if len(data) <= budget {
			fit = shrunk{data: data, width: img.Rect.Dx(), height: img.Rect.Dy(), quality: lo}
		}
	}
	return fit, smallest, nil
}

// encode writes img as a baseline JPEG at quality q; sizeHint presizes the
// buffer.
func encode(img *image.RGBA, q, sizeHint int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(sizeHint + sizeHint/4 + 4096)
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}); err != nil {
		return nil, fmt.Errorf("jpegfit: encode jpeg q%d: %w", q, err)
	}
	return buf.Bytes(), nil
}
