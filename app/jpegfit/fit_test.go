package jpegfit

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"yui/app/jpegfit/jpegfittest"
)

func TestFitNoImages(t *testing.T) {
	f := newTestFrame("ok")
	res, err := Fit(context.Background(), nil, 1024, f.serializer())
	if err != nil || len(res.URLs) != 0 || strings.Contains(string(res.Frame), "images") {
		t.Fatalf("Fit(nil) = %s, %v; want a frame without images", res.Frame, err)
	}
	if _, err := Fit(context.Background(), nil, 20, f.serializer()); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("frame over the cap: err = %v, want ErrTooLarge", err)
	}
}

func TestFitPassesSmallImagesThroughByteForByte(t *testing.T) {
	cache := sources{}
	srcs := []source{
		cache.get(t, sourceSpec{64, 64, "png", 1}),
		cache.get(t, sourceSpec{320, 200, "gif", 2}),
		cache.get(t, sourceSpec{0, 0, "video-001.lossy.webp", 0}),
		cache.get(t, sourceSpec{200, 100, "jpeg", 3}),
	}
	f := newTestFrame("ok")
	res, err := fit(srcs, f, 8<<20)
	checkFit(t, srcs, f, 8<<20, res, err)
	for i, o := range res.Images {
		if o.Reencoded {
			t.Errorf("image %d re-encoded under an 8 MiB cap", i)
		}
	}
}

// TestFitShareIteration: a small image under its share frees room, so a
// second image that exceeds the plain equal share still passes through.
func TestFitShareIteration(t *testing.T) {
	cache := sources{}
	small := cache.get(t, sourceSpec{64, 64, "png", 5})
	big := cache.get(t, sourceSpec{640, 480, "png", 6})
	f := newTestFrame("ok")
	bare, _ := f.serializer()([]string{"", ""})
	bigURL := dataURLLen("png", len(big.data))
	smallURL := dataURLLen("png", len(small.data))
	capBytes := len(bare) + smallURL + bigURL // exact fit
	if bigURL <= (capBytes-len(bare))/2 {
		t.Fatalf("test set-up: big image (%d) is within the equal share", bigURL)
	}
	res, err := fit([]source{small, big}, f, capBytes)
	checkFit(t, []source{small, big}, f, capBytes, res, err)
	if res.Images[0].Reencoded || res.Images[1].Reencoded || len(res.Frame) != capBytes {
		t.Fatalf("want both passed through filling the cap exactly: %+v, frame %d of %d", res.Images, len(res.Frame), capBytes)
	}
	res, err = fit([]source{small, big}, f, capBytes-1)
	checkFit(t, []source{small, big}, f, capBytes-1, res, err)
	if res.Images[0].Reencoded || !res.Images[1].Reencoded {
		t.Fatalf("one byte less: want only the big image re-encoded: %+v", res.Images)
	}
}

func TestFitTooLarge(t *testing.T) {
	cache := sources{}
	shot := cache.get(t, sourceSpec{800, 450, "png", 7})
	f := newTestFrame(strings.Repeat("x", 1000))
	bare, _ := f.serializer()([]string{""})
	for _, capBytes := range []int{100, len(bare) + 10, len(bare) + 700} {
		res, err := fit([]source{shot}, f, capBytes)
		if !errors.Is(err, ErrTooLarge) || res.Frame != nil || res.URLs != nil {
			t.Fatalf("cap %d: got %d-byte frame, err %v; want ErrTooLarge and nothing", capBytes, len(res.Frame), err)
		}
	}
	// Just above the smallest JPEG the fitter makes, it fits.
	w, h := scaledSize(800, 450, float64(minLongSide)/800)
	smallest, err := encode(resize(shot.pixels, w, h), floorQuality, 0)
	if err != nil {
		t.Fatal(err)
	}
	capBytes := len(bare) + dataURLLen("jpeg", len(smallest))
	res, err := fit([]source{shot}, f, capBytes)
	checkFit(t, []source{shot}, f, capBytes, res, err)
	if err != nil {
		t.Fatalf("cap %d fits the smallest JPEG: %v", capBytes, err)
	}
}

func TestFitRejectsUnsupported(t *testing.T) {
	cache := sources{}
	ok := cache.get(t, sourceSpec{64, 64, "png", 8})
	bmp := append([]byte("BM"), make([]byte, 60)...)
	tiff := []byte("II*\x00\x08\x00\x00\x00")
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)
	cases := []struct {
		name string
		img  Image
		want string
	}{
		{"bmp", Image{Data: bmp, MIME: "image/bmp"}, `declared type "image/bmp"`},
		{"bmp undeclared", Image{Data: bmp, MIME: ""}, "not PNG, JPEG, GIF or WebP"},
		{"tiff", Image{Data: tiff, MIME: "image/tiff"}, "image/tiff"},
		{"svg", Image{Data: svg, MIME: "image/svg+xml"}, "image/svg+xml"},
		{"empty", Image{Data: nil, MIME: "image/png"}, "not PNG, JPEG, GIF or WebP"},
		{"mismatch", Image{Data: ok.data, MIME: "image/jpeg"}, `declared "image/jpeg" but the bytes are png`},
		{"bad mime", Image{Data: ok.data, MIME: "image/"}, `declared type "image/"`},
	}
	for _, c := range cases {
		images := []Image{{Data: ok.data, MIME: ok.mime}, {Data: ok.data}, c.img}
		_, err := Fit(context.Background(), images, 8<<20, newTestFrame("ok").serializer())
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "image 2") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v; want ErrUnsupported naming image 2 and %q", c.name, err, c.want)
		}
	}
	// A header cut short fails even for an image that would pass through;
	// a body cut short fails only when the image must be decoded.
	truncated := Image{Data: ok.data[:20], MIME: "image/png"}
	_, err := Fit(context.Background(), []Image{truncated}, 8<<20, newTestFrame("ok").serializer())
	if err == nil || errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "image 0: read png header") {
		t.Errorf("truncated PNG header: err = %v; want a header error naming image 0", err)
	}
	big := cache.get(t, sourceSpec{640, 480, "png", 9})
	body := Image{Data: big.data[:len(big.data)/2], MIME: "image/png"}
	_, err = Fit(context.Background(), []Image{{Data: ok.data, MIME: ok.mime}, body}, 20<<10, newTestFrame("ok").serializer())
	if err == nil || !strings.Contains(err.Error(), "image 1: decode png") {
		t.Errorf("truncated PNG body to re-encode: err = %v; want a decode error naming image 1", err)
	}
}

func TestFitAcceptsMIMEVariants(t *testing.T) {
	shot := jpegfittest.Screenshot(32, 32, 9)
	data, err := jpegfittest.JPEG(shot, 80)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"image/jpeg", "IMAGE/JPEG", "image/jpg", "image/jpeg; q=1", ""} {
		res, err := Fit(context.Background(), []Image{{Data: data, MIME: m}}, 1<<20, newTestFrame("ok").serializer())
		if err != nil || !strings.HasPrefix(res.URLs[0], "data:image/jpeg;base64,") {
			t.Errorf("MIME %q: %v", m, err)
		}
	}
}

// TestFitFlattensAlphaOverWhite: a transparent PNG re-encoded shows white.
func TestFitFlattensAlphaOverWhite(t *testing.T) {
	// Colours under zero alpha are noise, so the PNG is too big to pass.
	img := image.NewNRGBA(image.Rect(0, 0, 400, 300))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i-3], img.Pix[i-2], img.Pix[i-1], img.Pix[i] = uint8(rng.Uint32()), uint8(rng.Uint32()), 0, 0
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	res, err := Fit(context.Background(), []Image{{Data: buf.Bytes(), MIME: "image/png"}}, 2000, func(u []string) ([]byte, error) { return []byte(strings.Join(u, ",")), nil })
	if err != nil {
		t.Fatal(err)
	}
	out := decodeURL(t, res.URLs[0])
	if r, g, b, _ := out.At(10, 10).RGBA(); r>>8 < 245 || g>>8 < 245 || b>>8 < 245 {
		t.Fatalf("transparent pixel became %v, want white", out.At(10, 10))
	}
}

func TestFitWebPWithAlpha(t *testing.T) {
	data, err := os.ReadFile("testdata/yellow_rose.lossy-with-alpha.webp")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Fit(context.Background(), []Image{{Data: data, MIME: "image/webp"}}, 8000, func(u []string) ([]byte, error) { return []byte(u[0]), nil })
	if err != nil || !res.Images[0].Reencoded {
		t.Fatalf("WebP into 8000 bytes: %+v, %v", res.Images, err)
	}
	decodeURL(t, res.URLs[0])
}

// TestFitEscapingSerializer: a serializer that escapes "/" (as some JSON
// writers do) grows with the URLs; the fitter still keeps the cap.
func TestFitEscapingSerializer(t *testing.T) {
	cache := sources{}
	shot := cache.get(t, sourceSpec{800, 450, "png", 11})
	escaping := func(u []string) ([]byte, error) {
		b, err := json.Marshal(map[string]any{"type": "turn", "images": u})
		return bytes.ReplaceAll(b, []byte("/"), []byte(`\/`)), err
	}
	const capBytes = 64 << 10
	res, err := Fit(context.Background(), []Image{{Data: shot.data, MIME: shot.mime}}, capBytes, escaping)
	if err != nil || len(res.Frame) > capBytes {
		t.Fatalf("frame %d of cap %d, err %v", len(res.Frame), capBytes, err)
	}
}

func TestFitSerializerError(t *testing.T) {
	boom := errors.New("boom")
	_, err := Fit(context.Background(), nil, 100, func([]string) ([]byte, error) { return nil, boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the serializer's error wrapped", err)
	}
	if _, err := Fit(context.Background(), nil, 100, nil); err == nil {
		t.Fatal("nil serializer accepted")
	}
}

func TestFitCancelled(t *testing.T) {
	cache := sources{}
	shot := cache.get(t, sourceSpec{800, 450, "png", 12})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Fit(ctx, []Image{{Data: shot.data, MIME: shot.mime}}, 32<<10, newTestFrame("ok").serializer())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestFitDoesNotModifyInput: the caller's bytes are only read.
func TestFitDoesNotModifyInput(t *testing.T) {
	cache := sources{}
	shot := cache.get(t, sourceSpec{800, 450, "png", 13})
	before := bytes.Clone(shot.data)
	if _, err := fit([]source{shot}, newTestFrame("ok"), 40<<10); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, shot.data) {
		t.Fatal("Fit modified the input bytes")
	}
}

func TestMinJPEGBytesIsBelowAnyJPEG(t *testing.T) {
	// The fitter only encodes *image.RGBA (three components).
	for _, img := range []image.Image{image.NewRGBA(image.Rect(0, 0, 1, 1)), image.NewRGBA(image.Rect(0, 0, 16, 16))} {
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 1}); err != nil {
			t.Fatal(err)
		}
		if buf.Len() < minJPEGBytes {
			t.Fatalf("a %T JPEG of %d bytes is under minJPEGBytes %d", img, buf.Len(), minJPEGBytes)
		}
	}
}

func decodeURL(t *testing.T, url string) image.Image {
	t.Helper()
	_, payload, _ := strings.Cut(url, ";base64,")
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a JPEG: %v", err)
	}
	return img
}

// A capture's pixels go in from memory: re-encoded as JPEG within the cap
// (never passed through: they have no bytes), the same size as the PNG of
// the same pixels gives, and an empty or oversized image is refused.
func TestFitPixelsFromMemory(t *testing.T) {
	rgba := jpegfittest.Screenshot(800, 450, 21)
	var pngBytes bytes.Buffer
	if err := png.Encode(&pngBytes, rgba); err != nil {
		t.Fatal(err)
	}
	const capBytes = 48 << 10
	ser := newTestFrame("ok").serializer()
	fromMemory, err := Fit(context.Background(), []Image{{Pixels: rgba}}, capBytes, ser)
	if err != nil || len(fromMemory.Frame) > capBytes {
		t.Fatalf("from memory: frame %d of cap %d, err %v", len(fromMemory.Frame), capBytes, err)
	}
	o := fromMemory.Images[0]
	if !o.Reencoded || !strings.HasPrefix(fromMemory.URLs[0], "data:image/jpeg;base64,") {
		t.Fatalf("from memory: %+v, url %.30q", o, fromMemory.URLs[0])
	}
	fromPNG, err := Fit(context.Background(), []Image{{Data: pngBytes.Bytes(), MIME: "image/png"}}, capBytes, ser)
	if err != nil {
		t.Fatal(err)
	}
	if p := fromPNG.Images[0]; p.Width != o.Width || p.Height != o.Height || p.Quality != o.Quality {
		t.Fatalf("from memory %+v, from its PNG %+v", o, p)
	}
	// Small pixels still go re-encoded: there are no original bytes to pass.
	tiny := image.NewRGBA(image.Rect(0, 0, 4, 4))
	res, err := Fit(context.Background(), []Image{{Pixels: tiny}}, capBytes, ser)
	if err != nil || !res.Images[0].Reencoded {
		t.Fatalf("tiny: %+v, %v", res.Images, err)
	}
	if _, err := Fit(context.Background(), []Image{{Pixels: image.NewRGBA(image.Rectangle{})}}, capBytes, ser); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("empty pixels: %v", err)
	}
}
