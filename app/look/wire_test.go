package look_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/jpeg"
	"strings"
	"testing"
	"testing/synctest"

	"yui/app/capture"
	"yui/app/jpegfit"
	"yui/app/look"
	"yui/app/permission"
	"yui/app/settings"
	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// noisy draws a screen JPEG and PNG compress badly.
func noisy(m capture.Monitor) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, m.Bounds.Dx(), m.Bounds.Dy()))
	seed := uint32(1)
	for i := range img.Pix {
		seed = seed*1664525 + 1013904223
		img.Pix[i] = uint8(seed >> 24)
		if i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	return img
}

// callScreen runs a look screen call from a real pushserver through the
// push client with the jpegfit fitter and returns what the backend got.
func callScreen(t *testing.T, maxTurnBytes int) (string, []string) {
	t.Helper()
	srv := pushserver.New(pushserver.Config{Key: "k", MaxTurnBytes: maxTurnBytes})
	tool := look.New(look.Config{
		Screen: &capture.Fixed{Screens: monitors[:1], Draw: noisy},
		Gate:   permission.New(permission.Config{Permissions: settings.Permissions{Screen: "allow"}}),
	})
	c, err := push.New(push.Config{
		Endpoint: func() string { return "http://backend.test" }, Key: func() string { return "k" },
		ChatID: "yui-0000abcd", Tools: []push.Tool{tool}, ImageFitter: jpegfit.URLFitter{},
		Handler: transport.HandlerFuncs{}, HTTPClient: pushserver.InMemoryClient(srv),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	defer c.Close()
	c.Start()
	synctest.Wait()
	result, images, err := srv.CallTool(context.Background(), "yui-0000abcd", "1", "look", map[string]any{"at": "screen"})
	if err != nil {
		t.Fatal(err)
	}
	return result, images
}

func TestScreenResultFittedOverTheWire(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 96 << 10
		result, images := callScreen(t, limit)
		if result != "ok" || len(images) != 1 {
			t.Fatalf("%q, %d images", result, len(images))
		}
		payload, ok := strings.CutPrefix(images[0], "data:image/jpeg;base64,")
		if !ok {
			t.Fatalf("not a JPEG data URL: %.40s", images[0])
		}
		frame, err := push.Encode(push.ToolResult{ID: "c-1", TurnID: "1", Result: result, Images: images})
		if err != nil || len(frame) > limit {
			t.Fatalf("frame %d bytes (cap %d) %v", len(frame), limit, err)
		}
		b, _ := base64.StdEncoding.DecodeString(payload)
		img, err := jpeg.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w > 1280 || h > 800 || (w*800-h*1280) > 1280 || (h*1280-w*800) > 1280 {
			t.Fatalf("size %dx%d", w, h)
		}
	})
}

func TestScreenResultTooLarge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		result, images := callScreen(t, 600)
		if result != "error: result too large" || len(images) != 0 {
			t.Fatalf("%q, %d images", result, len(images))
		}
	})
}
