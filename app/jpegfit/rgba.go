package jpegfit

import (
	"context"
	"errors"
	"fmt"
	"image"
)

// FitRGBA encodes img straight to a JPEG data URL of at most urlBytes
// bytes, with no lossless round trip first: at full size when that fits,
// else downscaled (aspect kept) and/or at a lower quality, by the same
// search Fit uses for a re-encoded image. The search is bounded in time by
// d (see Deadline), so a caller with a wait to keep — a tool answering
// within its client wait — gets an answer in time on a slow machine, at a
// lower size rather than late.
//
// Errors: ErrTooLarge (wrapped) when nothing fits urlBytes; ctx's error
// (wrapped) when ctx is cancelled; an error for a nil or empty image.
// Safe from any goroutine; img is read, never modified.
func FitRGBA(ctx context.Context, img *image.RGBA, urlBytes int, d Deadline) (string, Outcome, error) {
	if img == nil || img.Rect.Empty() {
		return "", Outcome{}, errors.New("jpegfit: fit: empty image")
	}
	budget := payloadFor("jpeg", urlBytes)
	out, err := shrink(ctx, img, budget, d)
	if err != nil {
		return "", Outcome{}, fmt.Errorf("jpegfit: fit %dx%d into %d bytes: %w", img.Rect.Dx(), img.Rect.Dy(), urlBytes, err)
	}
	o := Outcome{Reencoded: true, Width: out.width, Height: out.height, Quality: out.quality, Bytes: len(out.data)}
	return dataURL("jpeg", out.data), o, nil
}
