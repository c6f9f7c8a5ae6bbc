//go:build e2e

package e2e

import (
	"image"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"yui/app/settings"
)

// vrmLookFolder writes a VRM look folder of the generated 1.0 test model
// (frontend/tests/vrm) into the config dir and has the first preset wear it.
func vrmLookFolder(t *testing.T, cfg string) {
	t.Helper()
	dir := filepath.Join(cfg, "looks", "testvrm")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(repoRoot, "frontend", "tests", "vrm", "yui-test-1.0.vrm"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "model.vrm"), b, 0o600)
	os.WriteFile(filepath.Join(dir, "look.json"), []byte(`{"name": "Test VRM"}`), 0o600)
	st, _, err := settings.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Update(func(s *settings.Settings) { s.Presets[0].Look = "testvrm" }); err != nil {
		t.Fatal(err)
	}
}

// silhouette is the box of the pixels of win that are not the backdrop.
func silhouette(img *image.RGBA, win image.Rectangle, r, g, b uint8) (image.Rectangle, int) {
	box, n := image.Rectangle{}, 0
	for y := win.Min.Y; y < win.Max.Y; y++ {
		for x := win.Min.X; x < win.Max.X; x++ {
			if near(img.At(x, y), r, g, b, 12) {
				continue
			}
			n++
			p := image.Rect(x, y, x+1, y+1)
			if box.Empty() {
				box = p
			} else {
				box = box.Union(p)
			}
		}
	}
	return box, n
}

// TestE2EVRMLookIsTransparentAndClicksPassAroundHer: the real window
// (WebKitGTK, WebGL through Mesa's software rendering) under Xvfb +
// xcompmgr draws a VRM look on a transparent window — the pixels around
// her show the desktop — and the window's input shape follows her
// silhouette: a click beside her legs, inside the box the SVG figure would
// take, reaches the window below; a click on her opens the composer.
func TestE2EVRMLookIsTransparentAndClicksPassAroundHer(t *testing.T) {
	d := startX(t, true)
	cfg, logs := t.TempDir(), t.TempDir()
	wx, wy := 200, 150
	s := seedSettings(t, cfg, wx, wy)
	vrmLookFolder(t, cfg)
	win := image.Rect(wx, wy, wx+winW, wy+winH)
	const bgR, bgG, bgB = 0x2e, 0x8b, 0x57
	bd := d.backdrop(t, bgR<<16|bgG<<8|bgB)

	a := startApp(t, d, cfg, logs)
	a.waitEvent(t, "core_ready", func(e map[string]any) bool { return e["event"] == "core_ready" })

	// Her outfit's blue, drawn by WebGL, and two captures alike.
	shot := d.awaitStill(t, win, "the VRM look painted", func(img *image.RGBA) bool {
		return countNear(img, 0x33, 0x8c, 0xd9, 40) > 1500
	})
	savePNG(t, shot, "pet-vrm.png")
	if hasLogEvent(t, logs, "look_fallback") {
		t.Fatalf("the window fell back to the SVG look: %v", readLog(t, logs))
	}
	// Her box: the character's 180 px column, below the cause card and
	// above the status row.
	boxLeft := wx + (winW-180)/2
	box, n := silhouette(shot, image.Rect(boxLeft, wy+100, boxLeft+180, wy+winH-45), bgR, bgG, bgB)
	t.Logf("her silhouette: %v, %d px", box, n)
	// Transparent around her: the window's corners and a point beside her
	// show the backdrop exactly.
	for _, p := range []image.Point{{wx + 2, wy + 2}, {wx + winW - 3, wy + 2}, {wx + 2, wy + winH - 3}, {wx + winW - 3, wy + winH - 60}} {
		if got := shot.At(p.X, p.Y); !near(got, bgR, bgG, bgB, 1) {
			t.Fatalf("%v is not see-through: %v (shot %s)", p, got, savePNG(t, shot, "vrm-corner.png"))
		}
	}
	// Beside her legs, within the 180 px character box (which an SVG look
	// takes clicks in whole): the backdrop shows, and a click goes through.
	beside := image.Point{boxLeft + 8, box.Max.Y - 30}
	if !near(shot.At(beside.X, beside.Y), bgR, bgG, bgB, 1) {
		t.Fatalf("%v beside her legs is not see-through (shot %s)", beside, savePNG(t, shot, "vrm-beside.png"))
	}
	d.awaitInputShapeWithout(t, "Yui — "+s.Presets[0].Name, beside)
	d.xdotool(t, "mousemove", strconv.Itoa(beside.X), strconv.Itoa(beside.Y), "click", "1")
	if p := bd.nextPress(t, "a click beside her did not reach the window below"); p != beside {
		t.Fatalf("backdrop got a press at %v, want %v", p, beside)
	}
	// On her body: the window takes it (the composer opens).
	body := centroidNear(t, shot, 0x33, 0x8c, 0xd9, 40)
	d.clickFace(t, body, win, true)
	bd.noPressSoFar(t, "a click on her")
	if err := a.terminate(t); err != nil {
		t.Fatalf("core exit: %v", err)
	}
}

// centroidNear is the centre of the pixels within tol of (r, g, b).
func centroidNear(t *testing.T, img *image.RGBA, r, g, b uint8, tol int) image.Point {
	t.Helper()
	var sx, sy, n int
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			if near(img.At(x, y), r, g, b, tol) {
				sx, sy, n = sx+x, sy+y, n+1
			}
		}
	}
	if n == 0 {
		t.Fatalf("no pixel near #%02x%02x%02x", r, g, b)
	}
	return image.Point{sx / n, sy / n}
}
