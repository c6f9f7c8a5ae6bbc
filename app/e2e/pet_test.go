//go:build e2e

// End-to-end tests of the real binary under Xvfb + xcompmgr. Run with
// `go test -tags e2e -run E2E ./app/e2e` after building build/bin/yui (make test
// does both). They need Xvfb, xcompmgr and xdotool (make deps installs
// them).
package e2e

import (
	"bufio"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/kbinani/screenshot"

	"yui/app/settings"
	"yui/app/x11/xvfbtest"
)

// xDisplay is a private Xvfb (+ xcompmgr) for one test.
type xDisplay struct {
	name string
}

func startX(t *testing.T, composite bool) *xDisplay {
	t.Helper()
	name, err := xvfbtest.Start(t)
	if err != nil {
		t.Fatal(err)
	}
	d := &xDisplay{name: name}
	// Wait until the display answers before starting GTK (platform notes:
	// a cold start once failed to init GTK).
	deadline := time.Now().Add(10 * time.Second)
	for exec.Command("xdpyinfo", "-display", d.name).Run() != nil {
		if time.Now().After(deadline) {
			t.Fatal("display never answered")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if composite {
		cm := exec.Command("xcompmgr")
		cm.Env = d.env()
		if err := cm.Start(); err != nil {
			t.Fatalf("start xcompmgr: %v", err)
		}
		t.Cleanup(func() { cm.Process.Kill(); cm.Wait() })
		time.Sleep(300 * time.Millisecond) // xcompmgr must own the screen before windows map
	}
	return d
}

// backdrop maps a full-screen window of one solid colour under everything,
// so see-through pixels have a known colour to show. Its channel receives
// the position of every button press that reaches it.
func (d *xDisplay) backdrop(t *testing.T, rgb uint32) <-chan image.Point {
	t.Helper()
	c, err := xgb.NewConnDisplay(d.name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	scr := xproto.Setup(c).DefaultScreen(c)
	w, _ := xproto.NewWindowId(c)
	err = xproto.CreateWindowChecked(c, scr.RootDepth, w, scr.Root, 0, 0, scr.WidthInPixels, scr.HeightInPixels, 0,
		xproto.WindowClassInputOutput, scr.RootVisual, xproto.CwBackPixel|xproto.CwOverrideRedirect|xproto.CwEventMask,
		[]uint32{rgb, 1, xproto.EventMaskButtonPress}).Check()
	if err != nil {
		t.Fatal(err)
	}
	xproto.MapWindow(c, w)
	xproto.GetInputFocus(c).Reply() // round trip: mapped before we go on
	presses := make(chan image.Point, 16)
	go func() {
		for {
			ev, err := c.WaitForEvent()
			if ev == nil && err == nil {
				return // connection closed
			}
			if bp, ok := ev.(xproto.ButtonPressEvent); ok {
				presses <- image.Point{int(bp.RootX), int(bp.RootY)}
			}
		}
	}()
	time.Sleep(300 * time.Millisecond)
	return presses
}

func (d *xDisplay) env() []string {
	return append(os.Environ(), "DISPLAY="+d.name, "XAUTHORITY=/dev/null")
}

func (d *xDisplay) capture(t *testing.T, r image.Rectangle) *image.RGBA {
	t.Helper()
	os.Setenv("DISPLAY", d.name)
	img, err := screenshot.CaptureRect(r)
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	img.Rect = r // CaptureRect's image starts at (0,0); use screen coordinates
	return img
}

func (d *xDisplay) xdotool(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command("xdotool", args...)
	cmd.Env = d.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("xdotool %v: %v %s", args, err, out)
	}
}

// app is a running `yui` core with its trace lines collected.
type app struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	events []map[string]any
	done   chan error
}

func binary(t *testing.T) string {
	t.Helper()
	p := os.Getenv("YUI_BIN")
	if p == "" {
		p = filepath.Join(repoRoot, "build", "bin", "yui")
	}
	abs, _ := filepath.Abs(p)
	if _, err := os.Stat(abs); err != nil {
		t.Fatalf("binary %s missing: build it first (make build): %v", abs, err)
	}
	return abs
}

func startApp(t *testing.T, d *xDisplay, configDir, logDir string, extra ...string) *app {
	t.Helper()
	return startAppArgs(t, d, append([]string{"--config-dir", configDir, "--log-dir", logDir, "--trace-view", "--demo=false"}, extra...))
}

func startAppArgs(t *testing.T, d *xDisplay, args []string) *app {
	t.Helper()
	return startAppEnv(t, d.env(), args)
}

// startAppEnv starts the binary with args in env and collects its trace.
func startAppEnv(t *testing.T, env, args []string) *app {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = env
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	a := &app{cmd: cmd, done: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				a.mu.Lock()
				a.events = append(a.events, m)
				a.mu.Unlock()
			}
		}
	}()
	go func() { a.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-a.done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	})
	return a
}

func (a *app) waitEvent(t *testing.T, what string, timeout time.Duration, pred func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		a.mu.Lock()
		for _, e := range a.events {
			if pred(e) {
				a.mu.Unlock()
				return e
			}
		}
		a.mu.Unlock()
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
	return nil
}

func near(c color.Color, r, g, b uint8, tol int) bool {
	cr, cg, cb, _ := c.RGBA()
	d := func(x uint32, y uint8) int {
		v := int(x>>8) - int(y)
		if v < 0 {
			v = -v
		}
		return v
	}
	return d(cr, r) <= tol && d(cg, g) <= tol && d(cb, b) <= tol
}

func countNear(img *image.RGBA, r, g, b uint8, tol int) int {
	n := 0
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			if near(img.At(x, y), r, g, b, tol) {
				n++
			}
		}
	}
	return n
}

func savePNG(t *testing.T, img image.Image, name string) string {
	dir := os.Getenv("YUI_E2E_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	os.MkdirAll(dir, 0o755)
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err == nil {
		png.Encode(f, img)
		f.Close()
	}
	return p
}

// readSettings reads the app's settings file without touching it (a
// settings.Store would replace a file it cannot parse).
func readSettings(t *testing.T, dir string) settings.Settings {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, settings.FileName))
	if err != nil {
		t.Fatal(err)
	}
	s, err := settings.Parse(b)
	if err != nil {
		t.Fatalf("the app's settings file does not parse: %v", err)
	}
	return s
}

// seedSettings writes a first-run settings file with the pet window placed
// at (x, y), so the test knows where to look.
func seedSettings(t *testing.T, dir string, x, y int) settings.Settings {
	t.Helper()
	st, _, err := settings.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Update(func(s *settings.Settings) {
		s.Presets[0].Window = &settings.Position{X: x, Y: y}
	}); err != nil {
		t.Fatal(err)
	}
	return st.Get()
}

const (
	winW, winH          = 300, 420
	skinR, skinG, skinB = 0xff, 0xe6, 0xd5 // the character's face
	hoodR, hoodG, hoodB = 0xb9, 0xa4, 0xe8 // her hoodie
)

// TestE2EPetWindow is the foundation's end-to-end check: the real binary
// under Xvfb + xcompmgr shows the character in a transparent window, a
// click opens the composer, a typed line reaches the core over the view
// protocol, a drag moves the window and the position is remembered, a dead
// window process is restarted, and SIGTERM ends everything with status 0.
func TestE2EPetWindow(t *testing.T) {
	d := startX(t, true)
	cfg, logs := t.TempDir(), t.TempDir()
	wx, wy := 200, 150
	s := seedSettings(t, cfg, wx, wy)
	win := image.Rect(wx, wy, wx+winW, wy+winH)
	const bgR, bgG, bgB = 0x2e, 0x8b, 0x57 // sea green: no colour of the character
	presses := d.backdrop(t, bgR<<16|bgG<<8|bgB)

	a := startApp(t, d, cfg, logs)
	a.waitEvent(t, "core_ready", 10*time.Second, func(e map[string]any) bool { return e["event"] == "core_ready" })

	// Wait for the character to be painted: enough face and hoodie pixels.
	var shot *image.RGBA
	deadline := time.Now().Add(30 * time.Second)
	for {
		shot = d.capture(t, win)
		if countNear(shot, skinR, skinG, skinB, 6) > 3000 && countNear(shot, hoodR, hoodG, hoodB, 6) > 2000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("character never painted; screenshot at %s", savePNG(t, shot, "never-painted.png"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	shot = d.capture(t, win)
	savePNG(t, shot, "pet-idle.png")
	t.Logf("face px %d, hoodie px %d", countNear(shot, skinR, skinG, skinB, 6), countNear(shot, hoodR, hoodG, hoodB, 6))

	// Transparent corners show the backdrop under the window exactly.
	for _, p := range []image.Point{{wx + 2, wy + 2}, {wx + winW - 3, wy + 2}, {wx + 2, wy + 60}, {wx + winW - 3, wy + winH - 3}} {
		if got := shot.At(p.X, p.Y); !near(got, bgR, bgG, bgB, 1) {
			t.Fatalf("corner %v is not see-through: %v, backdrop is #%02x%02x%02x (shot %s)", p, got, bgR, bgG, bgB, savePNG(t, shot, "corner.png"))
		}
	}

	// A click on a transparent part of the window goes through to the
	// window below (X11 input shape); a click on the character does not.
	through := image.Point{wx + 12, wy + 40}
	d.xdotool(t, "mousemove", strconv.Itoa(through.X), strconv.Itoa(through.Y), "click", "1")
	select {
	case p := <-presses:
		if p != through {
			t.Fatalf("backdrop got a press at %v, want %v", p, through)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a click on a transparent pixel did not reach the window below")
	}

	// Click the face: the composer opens; type a line and press Enter.
	face := findColorCentroid(t, shot, skinR, skinG, skinB)
	d.xdotool(t, "mousemove", strconv.Itoa(face.X), strconv.Itoa(face.Y), "click", "1")
	time.Sleep(700 * time.Millisecond)
	d.xdotool(t, "type", "--delay", "20", "hello from xdotool")
	d.xdotool(t, "key", "Return")
	got := a.waitEvent(t, "send_text over the view protocol", 10*time.Second, func(e map[string]any) bool {
		if e["event"] != "view_in" || e["role"] != "pet" {
			return false
		}
		m, _ := e["message"].(map[string]any)
		return m["type"] == "send_text"
	})
	if m := got["message"].(map[string]any); m["text"] != "hello from xdotool" || got["preset"] != s.Presets[0].ID {
		t.Fatalf("core received %v", got)
	}
	time.Sleep(700 * time.Millisecond) // let the core's error line paint
	savePNG(t, d.capture(t, win), "pet-composer.png")
	select {
	case p := <-presses:
		t.Fatalf("a click on the character reached the window below at %v", p)
	default:
	}

	// Drag the character by (+60, +40): the window follows and the core
	// remembers the new place.
	d.xdotool(t, "mousemove", strconv.Itoa(face.X), strconv.Itoa(face.Y))
	d.xdotool(t, "mousedown", "1")
	for i := 1; i <= 10; i++ {
		d.xdotool(t, "mousemove", strconv.Itoa(face.X+6*i), strconv.Itoa(face.Y+4*i))
		time.Sleep(30 * time.Millisecond)
	}
	d.xdotool(t, "mouseup", "1")
	want := settings.Position{X: wx + 60, Y: wy + 40}
	deadline = time.Now().Add(10 * time.Second)
	for {
		st := readSettings(t, cfg)
		if w := st.Presets[0].Window; w != nil && *w == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("moved window position not saved: %+v, want %+v", st.Presets[0].Window, want)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// A window process that dies is restarted.
	pid := windowPID(t, logs, 1)
	syscall.Kill(pid, syscall.SIGKILL)
	deadline = time.Now().Add(15 * time.Second)
	for windowStarts(t, logs) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("killed window was not restarted")
		}
		time.Sleep(100 * time.Millisecond)
	}
	newPID := windowPID(t, logs, 2)

	// SIGTERM on the core closes every window and exits 0.
	a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-a.done:
		if err != nil {
			t.Fatalf("core exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("core did not exit on SIGTERM")
	}
	if syscall.Kill(newPID, 0) == nil {
		time.Sleep(time.Second)
		if syscall.Kill(newPID, 0) == nil {
			t.Fatalf("window process %d outlived the core", newPID)
		}
	}
}

func findColorCentroid(t *testing.T, img *image.RGBA, r, g, b uint8) image.Point {
	var sx, sy, n int
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			if near(img.At(x, y), r, g, b, 6) {
				sx, sy, n = sx+x, sy+y, n+1
			}
		}
	}
	if n == 0 {
		t.Fatal("colour not found")
	}
	return image.Point{sx / n, sy / n}
}

type logLine struct {
	Event  string `json:"event"`
	PID    int    `json:"pid"`
	Window string `json:"window"`
}

func readLog(t *testing.T, dir string) []logLine {
	var out []logLine
	files, _ := filepath.Glob(filepath.Join(dir, "yui-*.log"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, l := range strings.Split(string(b), "\n") {
			var ll logLine
			if json.Unmarshal([]byte(l), &ll) == nil {
				out = append(out, ll)
			}
		}
	}
	return out
}

func windowStarts(t *testing.T, dir string) int {
	n := 0
	for _, l := range readLog(t, dir) {
		if l.Event == "window_start" {
			n++
		}
	}
	return n
}

func windowPID(t *testing.T, dir string, nth int) int {
	n := 0
	for _, l := range readLog(t, dir) {
		if l.Event == "window_start" {
			n++
			if n == nth {
				return l.PID
			}
		}
	}
	t.Fatalf("no window_start #%d in the log", nth)
	return 0
}
