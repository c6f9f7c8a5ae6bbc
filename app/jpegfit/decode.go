package jpegfit

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/webp"
)

// maxPixels bounds the decoded size of one image (about 50 megapixels, more
// than 8K UHD), so a small file cannot claim a huge canvas.
const maxPixels = 50_000_000

// decoders maps each format to its configuration reader and decoder.
type decoders struct {
	config func(*bytes.Reader) (image.Config, error)
	decode func(*bytes.Reader) (image.Image, error)
}

func decoderFor(f format) decoders {
	switch f {
	case formatPNG:
		return decoders{func(r *bytes.Reader) (image.Config, error) { return png.DecodeConfig(r) },
			func(r *bytes.Reader) (image.Image, error) { return png.Decode(r) }}
	case formatJPEG:
		return decoders{func(r *bytes.Reader) (image.Config, error) { return jpeg.DecodeConfig(r) },
			func(r *bytes.Reader) (image.Image, error) { return jpeg.Decode(r) }}
	case formatGIF:
		return decoders{func(r *bytes.Reader) (image.Config, error) { return gif.DecodeConfig(r) },
			func(r *bytes.Reader) (image.Image, error) { return gif.Decode(r) }}
	default:
		return decoders{func(r *bytes.Reader) (image.Config, error) { return webp.DecodeConfig(r) },
			func(r *bytes.Reader) (image.Image, error) { return webp.Decode(r) }}
	}
}

// header reads the format and pixel size of data without decoding pixels.
func header(data []byte, mimeType string) (format, image.Config, error) {
	f, err := identify(data, mimeType)
	if err != nil {
		return "", image.Config{}, err
	}
	cfg, err := decoderFor(f).config(bytes.NewReader(data))
	if err != nil {
		return "", image.Config{}, fmt.Errorf("read %s header: %w", f, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return "", image.Config{}, fmt.Errorf("%s header: empty image %d×%d", f, cfg.Width, cfg.Height)
	}
	return f, cfg, nil
}

// decode checks data against its declared MIME type and decodes it into an
// opaque RGBA image (transparent parts over white). GIF gives its first
// frame. Images above maxPixels are refused before their pixels are read.
func decode(data []byte, mimeType string) (*image.RGBA, error) {
	f, cfg, err := header(data, mimeType)
	if err != nil {
		return nil, err
	}
	if int64(cfg.Width)*int64(cfg.Height) > maxPixels {
		return nil, fmt.Errorf("%s of %d×%d pixels exceeds the %d-pixel limit", f, cfg.Width, cfg.Height, maxPixels)
	}
	img, err := decoderFor(f).decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", f, err)
	}
	if img.Bounds().Empty() {
		return nil, fmt.Errorf("decode %s: empty image", f)
	}
	return flatten(img), nil
}
