package jpegfit

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
)

// URLFitter fits data-URL images into a byte room with Fit. It implements
// transport/push's ImageFitter (tool_result.images): room is what the data
// URLs themselves may take (the push client has already counted the
// frame, quotes and commas). No state; safe from any goroutine.
type URLFitter struct{}

// FitImages returns the images as data URLs whose lengths sum to at most
// room: within an equal share byte for byte, else re-encoded as JPEG.
// Errors: an argument that is not a base64 data URL, and Fit's errors
// (ErrTooLarge when nothing fits, ErrUnsupported).
func (URLFitter) FitImages(urls []string, room int) ([]string, error) {
	images := make([]Image, len(urls))
	for i, u := range urls {
		img, err := parseDataURL(u)
		if err != nil {
			return nil, fmt.Errorf("jpegfit: image %d: %w", i, err)
		}
		images[i] = img
	}
	res, err := Fit(context.Background(), images, room, func(out []string) ([]byte, error) {
		return []byte(strings.Join(out, "")), nil
	})
	if err != nil {
		return nil, err
	}
	return res.URLs, nil
}

// parseDataURL reads data:<mime>;base64,<payload>.
func parseDataURL(u string) (Image, error) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return Image{}, fmt.Errorf("not a data: URL: %w", ErrUnsupported)
	}
	meta, payload, ok := strings.Cut(rest, ",")
	mime, isBase64 := strings.CutSuffix(meta, ";base64")
	if !ok || !isBase64 {
		return Image{}, fmt.Errorf("not a base64 data: URL: %w", ErrUnsupported)
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return Image{}, fmt.Errorf("bad base64 in a data: URL: %w", err)
	}
	return Image{Data: data, MIME: mime}, nil
}
