//go:build e2e

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
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/kbinani/screenshot"

	"yui/app/x11/xvfbtest"
)

// The harness the desktop tests share: an X display, its backdrop and clicks, the app started on it, its settings and log.

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
