package jpegfittest

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
)

// PNG encodes img as PNG at the fastest compression level.
func PNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("jpegfittest: encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// JPEG encodes img as JPEG at quality q.
func JPEG(img image.Image, q int) ([]byte, error) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}); err != nil {
		return nil, fmt.Errorf("jpegfittest: encode jpeg: %w", err)
	}
	return buf.Bytes(), nil
}

// GIF encodes img as a single-frame GIF with the Plan 9 palette.
func GIF(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := gif.Encode(&buf, img, nil); err != nil {
		return nil, fmt.Errorf("jpegfittest: encode gif: %w", err)
	}
	return buf.Bytes(), nil
}
