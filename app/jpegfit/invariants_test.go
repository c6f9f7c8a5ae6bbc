package jpegfit

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/jpeg"
	"strings"
	"testing"
)

// checkFit asserts every invariant of one Fit call on srcs under capBytes.
func checkFit(t *testing.T, srcs []source, f testFrame, capBytes int, res Result, err error) {
	t.Helper()
	bare, _ := f.serializer()(make([]string, len(srcs)))
	room := capBytes - len(bare)
	share := room / max(len(srcs), 1)
	if err != nil {
		if !errors.Is(err, ErrTooLarge) {
			t.Fatalf("Fit: %v", err)
		}
		checkTooLarge(t, srcs, share)
		return
	}
	if len(res.Frame) > capBytes {
		t.Fatalf("frame of %d bytes exceeds cap %d", len(res.Frame), capBytes)
	}
	var got testFrame
	if err := json.Unmarshal(res.Frame, &got); err != nil {
		t.Fatalf("frame is not JSON: %v", err)
	}
	if len(got.Images) != len(srcs) || len(res.URLs) != len(srcs) || len(res.Images) != len(srcs) {
		t.Fatalf("got %d frame images, %d URLs, %d outcomes for %d inputs", len(got.Images), len(res.URLs), len(res.Images), len(srcs))
	}
	for i := range srcs {
		if got.Images[i] != res.URLs[i] {
			t.Fatalf("image %d: frame URL differs from Result.URLs", i)
		}
		checkImage(t, i, srcs, got.Images[i], res.Images[i], share)
	}
}

// checkImage asserts the invariants of output i.
func checkImage(t *testing.T, i int, srcs []source, url string, out Outcome, share int) {
	t.Helper()
	src := srcs[i]
	kind, payload, ok := strings.Cut(strings.TrimPrefix(url, "data:image/"), ";base64,")
	if !ok || !strings.HasPrefix(url, "data:image/") {
		t.Fatalf("image %d: not a base64 image data URL: %.40q", i, url)
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		t.Fatalf("image %d: base64: %v", i, err)
	}
	passLen := dataURLLen(strings.TrimPrefix(src.mime, "image/"), len(src.data))
	if passLen <= share && out.Reencoded {
		t.Fatalf("image %d (%s): URL of %d bytes within share %d was re-encoded", i, src.name, passLen, share)
	}
	if !out.Reencoded {
		if "image/"+kind != src.mime || !bytes.Equal(data, src.data) {
			t.Fatalf("image %d (%s): passed-through image is not the original bytes", i, src.name)
		}
		return
	}
	if kind != "jpeg" {
		t.Fatalf("image %d: re-encoded as %q", i, kind)
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("image %d (%s): output is not a valid JPEG: %v", i, src.name, err)
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	sw, sh := src.pixels.Rect.Dx(), src.pixels.Rect.Dy()
	if w != out.Width || h != out.Height || len(data) != out.Bytes {
		t.Fatalf("image %d: outcome %+v, JPEG %d×%d of %d bytes", i, out, w, h, len(data))
	}
	if w > sw || h > sh {
		t.Fatalf("image %d (%s): upscaled to %d×%d", i, src.name, w, h)
	}
	if d := w*sh - h*sw; d > sw+sh || -d > sw+sh {
		t.Fatalf("image %d (%s): aspect changed: %d×%d from %d×%d", i, src.name, w, h, sw, sh)
	}
	checkOrder(t, i, srcs, img)
}

// checkOrder asserts that output i looks most like input i.
func checkOrder(t *testing.T, i int, srcs []source, out image.Image) {
	t.Helper()
	fw, fh := min(8, out.Bounds().Dx()), min(8, out.Bounds().Dy())
	mine := fingerprint(flatten(out), fw, fh)
	own := distance(mine, fingerprint(srcs[i].pixels, fw, fh))
	if own > 24 {
		t.Fatalf("image %d (%s): output differs from its source by %d per channel", i, srcs[i].name, own)
	}
	for j, other := range srcs {
		if other.name == srcs[i].name {
			continue
		}
		if d := distance(mine, fingerprint(other.pixels, fw, fh)); d < own {
			t.Fatalf("image %d (%s): output looks more like input %d (%s): %d < %d", i, srcs[i].name, j, other.name, d, own)
		}
	}
}

func fingerprint(img *image.RGBA, w, h int) []uint8 {
	if img.Rect.Dx() < w || img.Rect.Dy() < h {
		return nil
	}
	return resize(img, w, h).Pix
}

// distance is the mean absolute channel difference, or 255 when the
// fingerprints cannot be compared.
func distance(a, b []uint8) int {
	if len(a) != len(b) || len(a) == 0 {
		return 255
	}
	total := 0
	for k := range a {
		total += max(int(a[k])-int(b[k]), int(b[k])-int(a[k]))
	}
	return total / len(a)
}

// checkTooLarge asserts that ErrTooLarge was due: some image that does not
// fit the smallest share cannot fit it at the fitter's smallest JPEG either
// (each image's share is at least the equal share of the whole room).
func checkTooLarge(t *testing.T, srcs []source, share int) {
	t.Helper()
	budget := payloadFor("jpeg", share)
	if budget < minJPEGBytes {
		return
	}
	for _, src := range srcs {
		if dataURLLen(strings.TrimPrefix(src.mime, "image/"), len(src.data)) <= share {
			continue
		}
		sw, sh := src.pixels.Rect.Dx(), src.pixels.Rect.Dy()
		w, h := scaledSize(sw, sh, min(1, float64(minLongSide)/float64(max(sw, sh))))
		data, err := encode(resize(src.pixels, w, h), floorQuality, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > budget {
			return
		}
	}
	t.Fatalf("ErrTooLarge though every image fits share %d at its smallest JPEG", share)
}

// fit runs Fit on srcs with frame f.
func fit(srcs []source, f testFrame, capBytes int) (Result, error) {
	images := make([]Image, len(srcs))
	for i, s := range srcs {
		images[i] = Image{Data: s.data, MIME: s.mime}
	}
	return Fit(context.Background(), images, capBytes, f.serializer())
}
