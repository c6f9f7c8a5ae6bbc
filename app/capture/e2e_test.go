//go:build e2e

package capture_test

import (
	"context"
	"image"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"yui/app/capture"
	"yui/app/x11/xvfbtest"
)

// startXvfb starts a private display and points $DISPLAY at it.
func startXvfb(t *testing.T) string {
	t.Helper()
	d, err := xvfbtest.Start(t)
	if err != nil {
		t.Skip(err)
	}
	t.Setenv("DISPLAY", d)
	return d
}

// patch is one coloured window of the pattern.
type patch struct {
	x, y, w, h int
	rgb        uint32
}

var pattern = []patch{
	{100, 120, 40, 30, 0xff0000},
	{140, 120, 40, 30, 0x00ff00},
	{100, 150, 40, 30, 0x0000ff},
	{140, 150, 40, 30, 0xffff00},
	{1200, 700, 16, 16, 0xff00ff},
}

// drawPattern maps override-redirect windows whose background the server
// paints itself, and waits until the server has done it.
func drawPattern(t *testing.T, display string) {
	t.Helper()
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	scr := xproto.Setup(c).DefaultScreen(c)
	for _, p := range pattern {
		wid, err := xproto.NewWindowId(c)
		if err != nil {
			t.Fatal(err)
		}
		err = xproto.CreateWindowChecked(c, scr.RootDepth, wid, scr.Root, int16(p.x), int16(p.y), uint16(p.w), uint16(p.h), 0,
			xproto.WindowClassInputOutput, scr.RootVisual,
			xproto.CwBackPixel|xproto.CwOverrideRedirect, []uint32{p.rgb, 1}).Check()
		if err != nil {
			t.Fatal(err)
		}
		if err := xproto.MapWindowChecked(c, wid).Check(); err != nil {
			t.Fatal(err)
		}
	}
	// A round trip: every request above has been processed.
	if _, err := xproto.GetInputFocus(c).Reply(); err != nil {
		t.Fatal(err)
	}
}

func TestCaptureFindsPatternE2E(t *testing.T) {
	display := startXvfb(t)
	drawPattern(t, display)
	src := capture.NewX11(nil)
	ms, err := src.Monitors()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].Bounds != image.Rect(0, 0, 1280, 800) || ms[0].Label == "" {
		t.Fatalf("monitors %+v", ms)
	}
	t.Logf("monitor 0 label %q", ms[0].Label)
	start := time.Now()
	shot, err := src.Capture(context.Background(), grant(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("captured %v in %v", shot.Image.Rect, time.Since(start))
	if shot.Image.Rect != image.Rect(0, 0, 1280, 800) {
		t.Fatalf("image %v", shot.Image.Rect)
	}
	for _, p := range pattern {
		want := [3]uint8{uint8(p.rgb >> 16), uint8(p.rgb >> 8), uint8(p.rgb)}
		for _, pt := range []image.Point{{p.x, p.y}, {p.x + p.w - 1, p.y + p.h - 1}, {p.x + p.w/2, p.y + p.h/2}} {
			i := shot.Image.PixOffset(pt.X, pt.Y)
			got := [3]uint8{shot.Image.Pix[i], shot.Image.Pix[i+1], shot.Image.Pix[i+2]}
			if got != want {
				t.Errorf("pixel %v = %v, want %v", pt, got, want)
			}
		}
		// Just outside the patch is the root's background, not the colour.
		i := shot.Image.PixOffset(p.x-1, p.y-1)
		if got := [3]uint8{shot.Image.Pix[i], shot.Image.Pix[i+1], shot.Image.Pix[i+2]}; got == want {
			t.Errorf("pixel outside %v has the patch colour", p)
		}
	}
	b, err := shot.PNG()
	if err != nil || len(b) == 0 {
		t.Fatal(err)
	}
	// A used grant captures nothing.
	g := grant(t, 0)
	if _, err := src.Capture(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Capture(context.Background(), g); err == nil {
		t.Fatal("a used grant captured")
	}
	if _, err := src.Capture(context.Background(), grant(t, 1)); err == nil {
		t.Fatal("monitor 1 captured on a one-monitor display")
	}
}
