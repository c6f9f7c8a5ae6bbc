package jpegfit

import (
	"image"
	"image/color"
	"image/draw"
)

// flatten returns img as an opaque *image.RGBA anchored at (0, 0), with
// transparent parts composited over white (JPEG has no alpha). An opaque
// *image.RGBA at the origin is returned as it is, without a copy.
func flatten(img image.Image) *image.RGBA {
	b := img.Bounds()
	if rgba, ok := img.(*image.RGBA); ok && b.Min == (image.Point{}) && rgba.Opaque() {
		return rgba
	}
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	if opaque(img) {
		draw.Draw(dst, dst.Rect, img, b.Min, draw.Src)
		return dst
	}
	draw.Draw(dst, dst.Rect, image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(dst, dst.Rect, img, b.Min, draw.Over)
	return dst
}

// opaque reports whether img is known to have no transparent pixel.
func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}
