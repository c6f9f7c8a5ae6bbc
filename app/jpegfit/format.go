package jpegfit

import (
	"bytes"
	"fmt"
	"mime"
	"strings"
)

// format is an input image format the fitter decodes.
type format string

const (
	formatPNG  format = "png"
	formatJPEG format = "jpeg"
	formatGIF  format = "gif"
	formatWebP format = "webp"
)

// sniff names the format of data from its leading bytes.
func sniff(data []byte) (format, bool) {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return formatPNG, true
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return formatJPEG, true
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return formatGIF, true
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return formatWebP, true
	}
	return "", false
}

// declared maps a declared MIME type to a format; "" declares nothing.
func declared(mimeType string) (format, bool, error) {
	if strings.TrimSpace(mimeType) == "" {
		return "", false, nil
	}
	media, _, err := mime.ParseMediaType(mimeType)
	if err != nil {
		return "", false, fmt.Errorf("declared type %q: %w", mimeType, ErrUnsupported)
	}
	switch media {
	case "image/png":
		return formatPNG, true, nil
	case "image/jpeg", "image/jpg", "image/pjpeg":
		return formatJPEG, true, nil
	case "image/gif":
		return formatGIF, true, nil
	case "image/webp":
		return formatWebP, true, nil
	}
	return "", false, fmt.Errorf("declared type %q: %w", mimeType, ErrUnsupported)
}

// identify checks data against its declared MIME type and returns the
// format its bytes hold.
func identify(data []byte, mimeType string) (format, error) {
	want, ok, err := declared(mimeType)
	if err != nil {
		return "", err
	}
	got, known := sniff(data)
	if !known {
		return "", fmt.Errorf("bytes are not PNG, JPEG, GIF or WebP: %w", ErrUnsupported)
	}
	if ok && want != got {
		return "", fmt.Errorf("declared %q but the bytes are %s: %w", mimeType, got, ErrUnsupported)
	}
	return got, nil
}
