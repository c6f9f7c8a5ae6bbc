package main

import (
	"fmt"
	"image"
	_ "image/jpeg" // decoders for ssimFiles
	_ "image/png"
	"math"
	"os"
)

// score is the mean SSIM of the luma of out against ref (same size),
// over 8×8 windows with a stride of 4 and the usual constants for 8-bit
// data (K1 = 0.01, K2 = 0.03), and the PSNR in dB over R, G and B.
func score(refPath, outPath string) (ssimValue, psnr float64, err error) {
	ref, err := load(refPath)
	if err != nil {
		return 0, 0, err
	}
	out, err := load(outPath)
	if err != nil {
		return 0, 0, err
	}
	if ref.Bounds().Size() != out.Bounds().Size() {
		return 0, 0, fmt.Errorf("score: sizes differ: %v vs %v", ref.Bounds().Size(), out.Bounds().Size())
	}
	return ssim(ref, out), psnrRGB(ref, out), nil
}

// psnrRGB is the PSNR of out against ref over R, G and B (8-bit peak).
func psnrRGB(ref, out image.Image) float64 {
	b, o := ref.Bounds(), out.Bounds()
	sum, n := 0.0, 0
	for y := range b.Dy() {
		for x := range b.Dx() {
			r1, g1, b1, _ := ref.At(b.Min.X+x, b.Min.Y+y).RGBA()
			r2, g2, b2, _ := out.At(o.Min.X+x, o.Min.Y+y).RGBA()
			for _, d := range [3]float64{float64(r1) - float64(r2), float64(g1) - float64(g2), float64(b1) - float64(b2)} {
				d /= 257
				sum += d * d
			}
			n += 3
		}
	}
	if sum == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/(sum/float64(n)))
}

// ssim is the mean luma SSIM of out against ref (same size).
func ssim(ref, out image.Image) float64 {
	a, b := luma(ref), luma(out)
	w, h := ref.Bounds().Dx(), ref.Bounds().Dy()
	const win, stride = 8, 4
	const c1, c2 = (0.01 * 255) * (0.01 * 255), (0.03 * 255) * (0.03 * 255)
	total, n := 0.0, 0
	for y := 0; y+win <= h; y += stride {
		for x := 0; x+win <= w; x += stride {
			var sa, sb, saa, sbb, sab float64
			for j := y; j < y+win; j++ {
				for i := x; i < x+win; i++ {
					va, vb := a[j*w+i], b[j*w+i]
					sa, sb = sa+va, sb+vb
					saa, sbb, sab = saa+va*va, sbb+vb*vb, sab+va*vb
				}
			}
			const m = win * win
			ma, mb := sa/m, sb/m
			va, vb, cov := saa/m-ma*ma, sbb/m-mb*mb, sab/m-ma*mb
			total += (2*ma*mb + c1) * (2*cov + c2) / ((ma*ma + mb*mb + c1) * (va + vb + c2))
			n++
		}
	}
	return total / float64(max(n, 1))
}

func load(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("load: decode %s: %w", path, err)
	}
	return img, nil
}

// luma is the BT.601 luma of img, row-major.
func luma(img image.Image) []float64 {
	b := img.Bounds()
	out := make([]float64, 0, b.Dx()*b.Dy())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			out = append(out, (0.299*float64(r)+0.587*float64(g)+0.114*float64(bl))/257)
		}
	}
	return out
}
