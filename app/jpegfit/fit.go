package jpegfit

import (
	"context"
	"errors"
	"fmt"
	"image"
)

// Image is one input image: its bytes and the MIME type the caller
// declares for them ("" to go by the bytes alone), or its pixels already
// in memory (a capture's RGBA: the real path, with no encode and decode
// between the capture and the fitter). An image with Pixels is always
// re-encoded (there are no bytes to pass through) and Data is ignored.
type Image struct {
	Data   []byte
	MIME   string
	Pixels *image.RGBA
}

// Serializer renders the whole frame with the given data URLs in its image
// field, in order. The fitter calls it with placeholder ("" strings) and
// final URLs and measures its output; it must be deterministic and must not
// keep the slice. For JSON frames: set the field, then json.Marshal.
type Serializer func(dataURLs []string) ([]byte, error)

// Outcome says what happened to one image.
type Outcome struct {
	Reencoded     bool // false: the original bytes were passed through
	Width, Height int  // pixels of the image sent (0 for passed-through images)
	Quality       int  // JPEG quality of a re-encoded image, 0 otherwise
	Bytes         int  // payload bytes before base64
}

// Result is a fitted frame.
type Result struct {
	Frame  []byte    // the serialized frame, at most the cap
	URLs   []string  // the data URLs, in input order
	Images []Outcome // per image, in input order
}

// maxAttempts bounds the refits after a serializer whose output grew by
// more than the URL bytes (one that escapes characters of the URLs).
const maxAttempts = 3

// Fit returns the frame serialize renders for images, fitted into capBytes:
// images whose data URL fits an equal share of the room left by the frame
// without images are passed through byte for byte; the others are
// re-encoded as smaller JPEGs. The returned frame never exceeds capBytes.
//
// Errors: ErrTooLarge (wrapped) when the frame cannot fit; ErrUnsupported
// (wrapped, naming the image index) for an image that is not PNG, JPEG, GIF
// or WebP or does not match its declared type; ctx's error when cancelled;
// the serializer's error as it is, wrapped.
func Fit(ctx context.Context, images []Image, capBytes int, serialize Serializer) (Result, error) {
	if serialize == nil {
		return Result{}, errors.New("jpegfit: nil serializer")
	}
	subtypes := make([]string, len(images))
	for i, img := range images {
		if img.Pixels != nil {
			if err := checkPixels(img.Pixels); err != nil {
				return Result{}, fmt.Errorf("jpegfit: image %d: %w", i, err)
			}
			subtypes[i] = string(formatJPEG)
			continue
		}
		f, _, err := header(img.Data, img.MIME)
		if err != nil {
			return Result{}, fmt.Errorf("jpegfit: image %d: %w", i, err)
		}
		subtypes[i] = string(f)
	}
	var placeholders []string
	if len(images) > 0 {
		placeholders = make([]string, len(images))
	}
	bare, err := serialize(placeholders)
	if err != nil {
		return Result{}, fmt.Errorf("jpegfit: serialize frame: %w", err)
	}
	reserve := 0
	for range maxAttempts {
		room := capBytes - len(bare) - reserve
		urls, outcomes, err := fitRoom(ctx, images, subtypes, room)
		if err != nil {
			return Result{}, err
		}
		frame, err := serialize(urls)
		if err != nil {
			return Result{}, fmt.Errorf("jpegfit: serialize frame: %w", err)
		}
		if len(frame) <= capBytes {
			return Result{Frame: frame, URLs: urls, Images: outcomes}, nil
		}
		reserve += len(frame) - capBytes
	}
	return Result{}, fmt.Errorf("jpegfit: serializer output keeps exceeding %d bytes: %w", capBytes, ErrTooLarge)
}

// fitRoom turns images into data URLs whose lengths sum to at most room.
func fitRoom(ctx context.Context, images []Image, subtypes []string, room int) ([]string, []Outcome, error) {
	if room < 0 {
		return nil, nil, fmt.Errorf("jpegfit: frame without images exceeds its cap by %d bytes: %w", -room, ErrTooLarge)
	}
	if len(images) == 0 {
		return nil, nil, nil
	}
	urls := make([]string, len(images))
	outcomes := make([]Outcome, len(images))
	pass, remaining := passThrough(images, subtypes, room)
	var oversized []int
	for i := range images {
		if pass[i] {
			urls[i] = dataURL(subtypes[i], images[i].Data)
			outcomes[i] = Outcome{Bytes: len(images[i].Data)}
			continue
		}
		oversized = append(oversized, i)
	}
	if len(oversized) > 0 && payloadFor("jpeg", remaining/len(oversized)) < minJPEGBytes {
		return nil, nil, fmt.Errorf("jpegfit: %d bytes left for %d images: %w", remaining, len(oversized), ErrTooLarge)
	}
	for n, i := range oversized {
		share := remaining / (len(oversized) - n)
		src, err := pixels(images[i])
		if err != nil {
			return nil, nil, fmt.Errorf("jpegfit: image %d: %w", i, err)
		}
		out, err := shrink(ctx, src, payloadFor("jpeg", share), Deadline{})
		if err != nil {
			return nil, nil, fmt.Errorf("jpegfit: image %d into %d bytes: %w", i, share, err)
		}
		urls[i] = dataURL("jpeg", out.data)
		remaining -= len(urls[i])
		outcomes[i] = Outcome{Reencoded: true, Width: out.width, Height: out.height, Quality: out.quality, Bytes: len(out.data)}
	}
	return urls, outcomes, nil
}

// passThrough marks the images whose data URL fits an equal share of room,
// repeating while passed images leave more for the rest, and returns the
// room they leave.
func passThrough(images []Image, subtypes []string, room int) ([]bool, int) {
	pass := make([]bool, len(images))
	left := len(images)
	for moved := true; moved && left > 0; {
		moved = false
		share := room / left
		for i, img := range images {
			if pass[i] || img.Pixels != nil {
				continue
			}
			if n := dataURLLen(subtypes[i], len(img.Data)); n <= share {
				pass[i] = true
				room -= n
				left--
				moved = true
			}
		}
	}
	return pass, room
}

// pixels is img's pixels: its Pixels as they are, else its Data decoded.
func pixels(img Image) (*image.RGBA, error) {
	if img.Pixels != nil {
		return img.Pixels, nil
	}
	return decode(img.Data, img.MIME)
}

// checkPixels refuses in-memory pixels the decoder would refuse: empty or
// past the pixel limit.
func checkPixels(p *image.RGBA) error {
	b := p.Bounds()
	if b.Empty() {
		return fmt.Errorf("empty image: %w", ErrUnsupported)
	}
	if int64(b.Dx())*int64(b.Dy()) > maxPixels {
		return fmt.Errorf("image of %d×%d pixels exceeds the %d-pixel limit", b.Dx(), b.Dy(), maxPixels)
	}
	return nil
}
