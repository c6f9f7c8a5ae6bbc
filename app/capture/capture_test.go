package capture_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"strings"
	"testing"

	"yui/app/capture"
	"yui/app/permission"
	"yui/app/settings"
)

func grant(t *testing.T, monitor int) *permission.Grant {
	t.Helper()
	g, err := permission.New(permission.Config{Permissions: settings.Permissions{Screen: "allow"}}).Request(monitor)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

var twoMonitors = []capture.Monitor{
	{Index: 0, Label: "DP-1", Bounds: image.Rect(0, 0, 1920, 1080)},
	{Index: 1, Label: "HDMI-1", Bounds: image.Rect(1920, 0, 1920+1280, 1024)},
}

func TestContaining(t *testing.T) {
	for _, c := range []struct {
		r    image.Rectangle
		want int
	}{
		{image.Rect(10, 10, 100, 100), 0},
		{image.Rect(1900, 10, 2100, 100), 1}, // more of it on monitor 1
		{image.Rect(1800, 10, 1960, 100), 0},
		{image.Rect(5000, 0, 5100, 10), -1},
		{image.Rect(2000, 5, 2000, 5), 1}, // a point
	} {
		if got := capture.Containing(twoMonitors, c.r); got != c.want {
			t.Errorf("%v: %d, want %d", c.r, got, c.want)
		}
	}
	if m, ok := capture.Find(twoMonitors, 1); !ok || m.Label != "HDMI-1" {
		t.Fatal(m, ok)
	}
	if _, ok := capture.Find(twoMonitors, 2); ok {
		t.Fatal("monitor 2 found")
	}
}

func TestFixedNeedsAGrant(t *testing.T) {
	f := &capture.Fixed{Screens: twoMonitors}
	ctx := context.Background()
	if _, err := f.Capture(ctx, nil); !errors.Is(err, permission.ErrNoGrant) {
		t.Fatalf("nil grant: %v", err)
	}
	if _, err := f.Capture(ctx, &permission.Grant{}); !errors.Is(err, permission.ErrNoGrant) {
		t.Fatalf("zero grant: %v", err)
	}
	g := grant(t, 1)
	shot, err := f.Capture(ctx, g)
	if err != nil || shot.Monitor.Label != "HDMI-1" || shot.Image.Rect.Dx() != 1280 {
		t.Fatalf("%+v %v", shot.Monitor, err)
	}
	if _, err := f.Capture(ctx, g); !errors.Is(err, permission.ErrNoGrant) {
		t.Fatalf("used grant: %v", err)
	}
	if _, err := f.Capture(ctx, grant(t, 7)); !errors.Is(err, capture.ErrNoMonitor) {
		t.Fatalf("monitor 7: %v", err)
	}
	if got := f.Taken(); len(got) != 1 || got[0] != 1 {
		t.Fatalf("taken %v", got)
	}
}

func TestShotPNG(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Pix[0], img.Pix[3] = 200, 255
	s := capture.Shot{Monitor: twoMonitors[0], Image: img}
	b, err := s.PNG()
	if err != nil {
		t.Fatal(err)
	}
	back, err := png.Decode(bytes.NewReader(b))
	if err != nil || back.Bounds() != img.Rect {
		t.Fatal(back.Bounds(), err)
	}
	if r, _, _, a := back.At(0, 0).RGBA(); r>>8 != 200 || a>>8 != 255 {
		t.Fatal(back.At(0, 0))
	}
	u, err := s.DataURL()
	if err != nil || !strings.HasPrefix(u, "data:image/png;base64,") {
		t.Fatal(u[:30], err)
	}
	if _, err := (capture.Shot{}).PNG(); err == nil {
		t.Fatal("no image encoded")
	}
}

func TestEachTurn(t *testing.T) {
	f := &capture.Fixed{Screens: twoMonitors[:1]}
	off := permission.New(permission.Config{Permissions: settings.Permissions{Screen: "ask"}})
	if _, err := capture.EachTurn(context.Background(), off, f, 0); !errors.Is(err, permission.ErrOff) {
		t.Fatalf("off: %v", err)
	}
	on := permission.New(permission.Config{Permissions: settings.Permissions{Screen: "ask", ScreenshotEachTurn: true}})
	shot, err := capture.EachTurn(context.Background(), on, f, 0)
	if err != nil || shot.Monitor.Label != "DP-1" {
		t.Fatal(shot.Monitor, err)
	}
	if b := shot.Image.Bounds(); b.Dx() != shot.Monitor.Bounds.Dx() || b.Dy() != shot.Monitor.Bounds.Dy() {
		t.Fatalf("captured %v of monitor %v", b, shot.Monitor.Bounds)
	}
	if _, err := capture.EachTurn(context.Background(), on, f, 1); !errors.Is(err, capture.ErrNoMonitor) {
		t.Fatalf("monitor 1: %v", err)
	}
	if len(f.Taken()) != 1 {
		t.Fatalf("taken %v", f.Taken())
	}
}
