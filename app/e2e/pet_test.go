//go:build e2e

// End-to-end tests of the real binary under Xvfb + xcompmgr. Run with
// `go test -tags e2e -run E2E ./app/e2e` after building build/bin/yui (make test
// does both). They need Xvfb, xcompmgr and xdotool (make deps installs
// them).
package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
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
	"github.com/jezek/xgb/shape"
	"github.com/jezek/xgb/xproto"
	"github.com/kbinani/screenshot"

	"yui/app/settings"
	"yui/app/x11/xvfbtest"
)

// e2eLimit bounds every wait of these tests. Each wait ends as soon as
// what it awaits is there (a trace line, a log line, a file, an X window, a
// pixel condition), so the limit only stops a hung test; it is long because
// a cold WebKit start on a busy 2-core machine takes seconds
// (docs/testing.md).
const e2eLimit = 2 * time.Minute

// until polls cond every step until it holds; it fails t with what when
// cond does not hold within e2eLimit.
func until(t *testing.T, what string, step time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(e2eLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", e2eLimit, what)
		}
		time.Sleep(step)
	}
}

// xDisplay is a private Xvfb (+ xcompmgr) for one test.
type xDisplay struct {
	name string
}

func startX(t *testing.T, composite bool) *xDisplay {
	t.Helper()
	return startXScreens(t, composite, "1280x800")
}

// startXScreens is startX with several monitors side by side (Xinerama).
func startXScreens(t *testing.T, composite bool, sizes ...string) *xDisplay {
	t.Helper()
	name, err := xvfbtest.StartScreens(t, sizes...)
	if err != nil {
		t.Fatal(err)
	}
	d := &xDisplay{name: name}
	// Wait until the display answers before starting GTK (platform notes:
	// a cold start once failed to init GTK).
	until(t, "the display to answer", 50*time.Millisecond, func() bool {
		return exec.Command("xdpyinfo", "-display", d.name).Run() == nil
	})
	if composite {
		cm := exec.Command("xcompmgr")
		cm.Env = d.env()
		if err := cm.Start(); err != nil {
			t.Fatalf("start xcompmgr: %v", err)
		}
		exited := make(chan struct{})
		go func() { cm.Wait(); close(exited) }()
		t.Cleanup(func() { cm.Process.Kill(); <-exited })
		d.awaitCompositor(t, exited)
	}
	return d
}

// awaitCompositor returns once a compositing manager owns the screen's
// _NET_WM_CM_S0 selection: windows mapped from then on are composited
// (transparency needs the compositor before the window is created).
func (d *xDisplay) awaitCompositor(t *testing.T, exited <-chan struct{}) {
	t.Helper()
	c, err := xgb.NewConnDisplay(d.name)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const sel = "_NET_WM_CM_S0"
	a, err := xproto.InternAtom(c, false, uint16(len(sel)), sel).Reply()
	if err != nil {
		t.Fatal(err)
	}
	until(t, "xcompmgr to own "+sel, 20*time.Millisecond, func() bool {
		select {
		case <-exited:
			t.Fatal("xcompmgr exited before owning the screen")
		default:
		}
		r, err := xproto.GetSelectionOwner(c, a.Atom).Reply()
		return err == nil && r.Owner != 0
	})
}

// backdrop is a full-screen window of one solid colour under everything,
// so see-through pixels have a known colour to show. It records every
// button press that reaches it.
type backdrop struct {
	c       *xgb.Conn
	win     xproto.Window
	barrier xproto.Atom
	events  chan backdropEvent
}

// backdropEvent is a button press at a root position, or the barrier.
type backdropEvent struct {
	press   image.Point
	barrier bool
}

// backdrop maps the backdrop in colour rgb and returns once it shows.
func (d *xDisplay) backdrop(t *testing.T, rgb uint32) *backdrop {
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
	const name = "YUI_E2E_BARRIER"
	a, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
	if err != nil {
		t.Fatal(err)
	}
	b := &backdrop{c: c, win: w, barrier: a.Atom, events: make(chan backdropEvent, 16)}
	xproto.MapWindow(c, w)
	go func() {
		for {
			ev, err := c.WaitForEvent()
			if ev == nil && err == nil {
				return // connection closed
			}
			switch e := ev.(type) {
			case xproto.ButtonPressEvent:
				b.events <- backdropEvent{press: image.Point{int(e.RootX), int(e.RootY)}}
			case xproto.ClientMessageEvent:
				if e.Type == b.barrier {
					b.events <- backdropEvent{barrier: true}
				}
			}
		}
	}()
	r, g, bl := uint8(rgb>>16), uint8(rgb>>8), uint8(rgb)
	probe := image.Rect(0, 0, 4, 4)
	until(t, "the backdrop to show", 20*time.Millisecond, func() bool {
		return countNear(d.capture(t, probe), r, g, bl, 1) == probe.Dx()*probe.Dy()
	})
	return b
}

// nextPress returns the position of the next button press on the backdrop.
func (b *backdrop) nextPress(t *testing.T, what string) image.Point {
	t.Helper()
	limit := time.After(e2eLimit)
	for {
		select {
		case e := <-b.events:
			if !e.barrier {
				return e.press
			}
		case <-limit:
			t.Fatalf("no press on the backdrop within %v: %s", e2eLimit, what)
		}
	}
}

// noPressSoFar fails t if a press reached the backdrop before now. It
// sends the backdrop's own client a barrier event: the X server delivers a
// client's events in the order it made them, so every press the server
// made before the barrier arrives before it. Call it once the input in
// question is known to be processed (its effect was seen elsewhere).
func (b *backdrop) noPressSoFar(t *testing.T, what string) {
	t.Helper()
	ev := xproto.ClientMessageEvent{Format: 32, Window: b.win, Type: b.barrier,
		Data: xproto.ClientMessageDataUnionData32New([]uint32{0, 0, 0, 0, 0})}
	// An empty event mask sends the event to the window's creator: us.
	if err := xproto.SendEventChecked(b.c, false, b.win, xproto.EventMaskNoEvent, string(ev.Bytes())).Check(); err != nil {
		t.Fatal(err)
	}
	limit := time.After(e2eLimit)
	for {
		select {
		case e := <-b.events:
			if e.barrier {
				return
			}
			t.Fatalf("%s: a press reached the window below at %v", what, e.press)
		case <-limit:
			t.Fatalf("the barrier event did not come back within %v", e2eLimit)
		}
	}
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
	cmd     *exec.Cmd
	mu      sync.Mutex
	events  []map[string]any
	changed chan struct{} // closed and replaced at every new trace line
	exited  chan struct{} // closed when the process has exited
	err     error         // its exit status, once exited is closed
}

// terminate sends SIGTERM and returns the exit status, failing t if the
// core does not exit within e2eLimit.
func (a *app) terminate(t *testing.T) error {
	t.Helper()
	a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.exited:
		return a.err
	case <-time.After(e2eLimit):
		t.Fatal("core did not exit on SIGTERM")
		return nil
	}
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
	a := &app{cmd: cmd, exited: make(chan struct{}), changed: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				a.mu.Lock()
				a.events = append(a.events, m)
				close(a.changed)
				a.changed = make(chan struct{})
				a.mu.Unlock()
			}
		}
	}()
	go func() { a.err = cmd.Wait(); close(a.exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-a.exited:
		case <-time.After(e2eLimit):
			cmd.Process.Kill()
		}
	})
	return a
}

// waitEvent returns the first trace line matching pred, waiting for new
// lines as they come, up to e2eLimit.
func (a *app) waitEvent(t *testing.T, what string, pred func(map[string]any) bool) map[string]any {
	t.Helper()
	limit := time.After(e2eLimit)
	seen := 0
	for {
		a.mu.Lock()
		evs, changed := a.events[seen:], a.changed
		seen = len(a.events)
		a.mu.Unlock()
		for _, e := range evs {
			if pred(e) {
				return e
			}
		}
		select {
		case <-changed:
		case <-limit:
			t.Fatalf("timed out after %v waiting for %s", e2eLimit, what)
		}
	}
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
	bd := d.backdrop(t, bgR<<16|bgG<<8|bgB)

	a := startApp(t, d, cfg, logs)
	a.waitEvent(t, "core_ready", func(e map[string]any) bool { return e["event"] == "core_ready" })

	// Wait for the character to be painted: enough face and hoodie pixels,
	// and two captures in a row alike (the paint has settled).
	shot := d.awaitStill(t, win, "the character painted", func(img *image.RGBA) bool {
		return countNear(img, skinR, skinG, skinB, 6) > 3000 && countNear(img, hoodR, hoodG, hoodB, 6) > 2000
	})
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
	// The shell applies the shape once the page reports its parts: wait
	// until the window's input shape leaves the point out.
	through := image.Point{wx + 12, wy + 40}
	d.awaitInputShapeWithout(t, "Yui — "+s.Presets[0].Name, through)
	d.xdotool(t, "mousemove", strconv.Itoa(through.X), strconv.Itoa(through.Y), "click", "1")
	if p := bd.nextPress(t, "a click on a transparent pixel did not reach the window below"); p != through {
		t.Fatalf("backdrop got a press at %v, want %v", p, through)
	}

	// Click the face: the composer opens; type a line and press Enter.
	// Half of it first, then Escape: keys typed while it is closed go
	// nowhere (WebKitGTK kept the focus in the hidden input, and they came
	// back as a surprise draft), and the half typed stays for the reopen.
	// The closed keys reach the window before the click that reopens it.
	face := findColorCentroid(t, shot, skinR, skinG, skinB)
	d.clickFace(t, face, win, true)
	d.xdotool(t, "type", "--delay", "20", "hello")
	d.xdotool(t, "key", "Escape")
	d.awaitShot(t, win, "the composer closed by Escape", func(img *image.RGBA) bool { return !composerShown(img) })
	d.xdotool(t, "type", "--delay", "20", "help")
	d.clickFace(t, face, win, true)
	d.xdotool(t, "type", "--delay", "20", " from xdotool")
	d.xdotool(t, "key", "Return")
	got := a.waitEvent(t, "send_text over the view protocol", func(e map[string]any) bool {
		if e["event"] != "view_in" || e["role"] != "pet" {
			return false
		}
		m, _ := e["message"].(map[string]any)
		return m["type"] == "send_text"
	})
	if m := got["message"].(map[string]any); m["text"] != "hello from xdotool" || got["preset"] != s.Presets[0].ID {
		t.Fatalf("core received %v", got)
	}
	savePNG(t, d.capture(t, win), "pet-composer.png") // for people; what it shows is not asserted
	// The face click was processed before the typed line reached the core.
	bd.noPressSoFar(t, "a click on the character")

	// Drag the character by (+60, +40): the window follows and the core
	// remembers the new place. (The moves come as fast as xdotool runs: the
	// page applies moves made before it knows the window's position.)
	d.xdotool(t, "mousemove", strconv.Itoa(face.X), strconv.Itoa(face.Y))
	d.xdotool(t, "mousedown", "1")
	for i := 1; i <= 10; i++ {
		d.xdotool(t, "mousemove", strconv.Itoa(face.X+6*i), strconv.Itoa(face.Y+4*i))
	}
	d.xdotool(t, "mouseup", "1")
	want := settings.Position{X: wx + 60, Y: wy + 40}
	until(t, fmt.Sprintf("the moved window's position %+v saved", want), 100*time.Millisecond, func() bool {
		w := readSettings(t, cfg).Presets[0].Window
		return w != nil && *w == want
	})

	// A window process that dies is restarted.
	pid := windowPID(t, logs, 1)
	syscall.Kill(pid, syscall.SIGKILL)
	until(t, "the killed window restarted", 50*time.Millisecond, func() bool { return windowStarts(t, logs) >= 2 })
	newPID := windowPID(t, logs, 2)

	// SIGTERM on the core closes every window and exits 0. The core waits
	// for its window processes before it exits, so none is left by then.
	if err := a.terminate(t); err != nil {
		t.Fatalf("core exit: %v", err)
	}
	if syscall.Kill(newPID, 0) == nil {
		t.Fatalf("window process %d outlived the core", newPID)
	}
}

// awaitShot captures r until cond holds and returns that capture; on
// timeout it saves the last capture and fails t.
func (d *xDisplay) awaitShot(t *testing.T, r image.Rectangle, what string, cond func(*image.RGBA) bool) *image.RGBA {
	t.Helper()
	var shot *image.RGBA
	deadline := time.Now().Add(e2eLimit)
	for {
		shot = d.capture(t, r)
		if cond(shot) {
			return shot
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s; last screenshot %s", e2eLimit, what, savePNG(t, shot, "timeout.png"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// awaitStill is awaitShot that also waits for the paint to settle: it
// returns a capture for which cond holds that equals the one before it.
func (d *xDisplay) awaitStill(t *testing.T, r image.Rectangle, what string, cond func(*image.RGBA) bool) *image.RGBA {
	t.Helper()
	var prev *image.RGBA
	return d.awaitShot(t, r, what+" (settled)", func(img *image.RGBA) bool {
		still := prev != nil && bytes.Equal(prev.Pix, img.Pix)
		prev = img
		return still && cond(img)
	})
}

// composerShown reports whether the pet's composer is painted: its text
// field is the only large pure white area of the pet window.
func composerShown(img *image.RGBA) bool { return countNear(img, 0xff, 0xff, 0xff, 2) > 2000 }

// clickFace clicks the character at face and waits until the composer is
// painted open (open) or closed, which shows the page handled the click:
// the composer takes the keyboard focus in the same handler that opens it.
func (d *xDisplay) clickFace(t *testing.T, face image.Point, win image.Rectangle, open bool) {
	t.Helper()
	d.xdotool(t, "mousemove", strconv.Itoa(face.X), strconv.Itoa(face.Y), "click", "1")
	state := map[bool]string{true: "open", false: "closed"}[open]
	d.awaitShot(t, win, "the composer "+state+" after a click on the character", func(img *image.RGBA) bool {
		return composerShown(img) == open
	})
}

// awaitInputShapeWithout waits until the window titled title has an input
// shape that leaves the screen point p out, so a click at p goes through.
func (d *xDisplay) awaitInputShapeWithout(t *testing.T, title string, p image.Point) {
	t.Helper()
	c, err := xgb.NewConnDisplay(d.name)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := shape.Init(c); err != nil {
		t.Fatal(err)
	}
	until(t, "the input shape of "+title+" without "+p.String(), 50*time.Millisecond, func() bool {
		id, r, ok := d.visibleWindow(t, title)
		if !ok {
			return false
		}
		rep, err := shape.GetRectangles(c, xproto.Window(id), shape.SkInput).Reply()
		if err != nil {
			return false
		}
		q := p.Sub(r.Min)
		for _, x := range rep.Rectangles {
			if q.In(image.Rect(int(x.X), int(x.Y), int(x.X)+int(x.Width), int(x.Y)+int(x.Height))) {
				return false
			}
		}
		return true
	})
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
