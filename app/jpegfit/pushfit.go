package jpegfit

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"yui/transport/dataurl"
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
	mime, data, err := dataurl.Decode(u)
	switch {
	case errors.Is(err, dataurl.ErrBadBase64):
		return Image{}, err
	case err != nil:
		return Image{}, fmt.Errorf("%w: %w", err, ErrUnsupported)
	}
	return Image{Data: data, MIME: mime}, nil
}
