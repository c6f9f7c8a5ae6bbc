package jpegfit

import (
	"image"
	"testing"
	"time"

	"github.com/disintegration/imaging"

	"yui/app/jpegfit/jpegfittest"
)

// imagingResize is imaging.Resize with Catmull-Rom — the filter resize
// uses — at its fastest here: the opaque RGBA handed over as an NRGBA view
// (no per-pixel conversion) and the result viewed back as RGBA, so
// image/jpeg keeps its fast path.
func imagingResize(src *image.RGBA, w, h int) *image.RGBA {
	view := &image.NRGBA{Pix: src.Pix, Stride: src.Stride, Rect: src.Rect}
	out := imaging.Resize(view, w, h, imaging.CatmullRom)
	return &image.RGBA{Pix: out.Pix, Stride: out.Stride, Rect: out.Rect}
}

// BenchmarkResize4K compares resize with imagingResize on the job the
// fitter does for a 4K screenshot into 256 KiB: 3840×2160 → 1589×894.
// docs/jpegfit.md has the figures and the SSIM of both.
func BenchmarkResize4K(b *testing.B) {
	src := jpegfittest.Screenshot(3840, 2160, 2026)
	for _, c := range []struct {
		name string
		rs   resizer
	}{{"own", resize}, {"imaging", imagingResize}} {
		b.Run(c.name, func(b *testing.B) {
			cpu0 := processCPU()
			for b.Loop() {
				c.rs(src, 1589, 894)
			}
			reportCPU(b, cpu0)
		})
	}
}

// BenchmarkFitRGBA4K is the fitter's real path — a capture's in-memory
// RGBA into a 256 KiB JPEG (probe, resize, quality search) — with each
// resampler.
func BenchmarkFitRGBA4K(b *testing.B) {
	src := jpegfittest.Screenshot(3840, 2160, 2026)
	budget := payloadFor("jpeg", dataURLLen("jpeg", 256<<10))
	for _, c := range []struct {
		name string
		rs   resizer
	}{{"own", resize}, {"imaging", imagingResize}} {
		b.Run(c.name, func(b *testing.B) {
			cpu0 := processCPU()
			for b.Loop() {
				if _, err := shrinkWith(b.Context(), src, budget, Deadline{}, c.rs); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu0)
		})
	}
}

// reportCPU reports the process CPU time per op since cpu0.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
