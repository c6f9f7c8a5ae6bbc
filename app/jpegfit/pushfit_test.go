package jpegfit_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"yui/app/jpegfit"
	"yui/transport/push"
)

var _ push.ImageFitter = jpegfit.URLFitter{}

func noisyPNG(t *testing.T, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	seed := uint32(7)
	for i := 0; i < len(img.Pix); i += 4 {
		seed = seed*1664525 + 1013904223
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(seed>>24), uint8(seed>>16), uint8(i/4%w), 255
	}
	img.Set(0, 0, color.RGBA{1, 2, 3, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
}

func TestURLFitter(t *testing.T) {
	small := noisyPNG(t, 8, 8)
	big := noisyPNG(t, 800, 600)
	room := 60 << 10
	out, err := jpegfit.URLFitter{}.FitImages([]string{small, big}, room)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0] != small || len(out[0])+len(out[1]) > room {
		t.Fatalf("lengths %d %d", len(out[0]), len(out[1]))
	}
	payload, ok := strings.CutPrefix(out[1], "data:image/jpeg;base64,")
	if !ok {
		t.Fatalf("not a JPEG data URL: %.40s", out[1])
	}
	b, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jpeg.Decode(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	if _, err := (jpegfit.URLFitter{}).FitImages([]string{big}, 100); !errors.Is(err, jpegfit.ErrTooLarge) {
		t.Fatalf("tiny room: %v", err)
	}
	for _, bad := range []string{"http://x/a.png", "data:image/png,abc", "data:image/png;base64,!!!", "data:text/plain;base64,aGVsbG8="} {
		if _, err := (jpegfit.URLFitter{}).FitImages([]string{bad}, room); err == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
}
