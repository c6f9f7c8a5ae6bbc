//go:build e2e

package e2e

import (
	"fmt"
	"image"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// foreignSite is a web site on loopback that records every request: what
// a link dragged from a browser points at. A window that navigated to a
// dropped link would fetch it.
type foreignSite struct {
	url  string
	mu   sync.Mutex
	hits []string
}

func startForeignSite(t *testing.T) *foreignSite {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &foreignSite{url: "http://" + ln.Addr().String()}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits = append(s.hits, r.URL.Path)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/source" {
			// The drag source: one link filling the whole page, so any
			// point of the browser window starts a drag of it.
			fmt.Fprintf(w, `<!doctype html><title>source</title><style>html,body{margin:0;height:100%%}
a{display:block;width:100vw;height:100vh;background:#c33;color:#fff;font:40px sans-serif}</style>
<a id="l" href="%s/dropped-link">drag me</a>`, s.url)
			return
		}
		fmt.Fprint(w, `<!doctype html><title>taken over</title><body style="background:#0f0">taken over</body>`)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// dropped reports the requests for the dropped link's page.
func (s *foreignSite) dropped() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, h := range s.hits {
		if strings.HasPrefix(h, "/dropped") {
			out = append(out, h)
		}
	}
	return out
}

func (s *foreignSite) served(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.hits {
		if h == path {
			return true
		}
	}
	return false
}

// startSourceBrowser opens Debian's Chromium (X11) at r showing the
// foreign site's source page: a real XDND drag source, as the issue's
// browser was.
func startSourceBrowser(t *testing.T, d *xDisplay, site *foreignSite, r image.Rectangle) {
	t.Helper()
	bin := os.Getenv("CHROMIUM")
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	profile := t.TempDir()
	cmd := exec.Command(bin, "--no-sandbox", "--ozone-platform=x11", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--password-store=basic", "--use-mock-keychain", "--user-data-dir="+profile,
		fmt.Sprintf("--window-position=%d,%d", r.Min.X, r.Min.Y), fmt.Sprintf("--window-size=%d,%d", r.Dx(), r.Dy()),
		"--app="+site.url+"/source")
	cmd.Env = d.env()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	until(t, "the source browser loaded its page", 100*time.Millisecond, func() bool { return site.served("/source") })
}

// xdndDrag drags with the mouse from one point to another as a person
// does: press, a few steps to leave the drag threshold, the travel, a
// pause over the target (XdndPosition/XdndStatus), release. The pauses
// pace the input like a hand (XDND needs pointer motion spread over time
// for its position/status exchange); nothing is awaited by them: what the
// drop did is checked by waiting on its effects.
func (d *xDisplay) xdndDrag(t *testing.T, from, to image.Point) {
	t.Helper()
	d.xdotool(t, "mousemove", strconv.Itoa(from.X), strconv.Itoa(from.Y))
	time.Sleep(200 * time.Millisecond)
	d.xdotool(t, "mousedown", "1")
	for i := 1; i <= 5; i++ {
		d.xdotool(t, "mousemove", strconv.Itoa(from.X+4*i), strconv.Itoa(from.Y+4*i))
		time.Sleep(50 * time.Millisecond)
	}
	const steps = 20
	for i := 1; i <= steps; i++ {
		x := from.X + (to.X-from.X)*i/steps
		y := from.Y + (to.Y-from.Y)*i/steps
		d.xdotool(t, "mousemove", strconv.Itoa(x), strconv.Itoa(y))
		time.Sleep(40 * time.Millisecond)
	}
	for i := 0; i < 5; i++ { // wiggle over the target: position updates
		d.xdotool(t, "mousemove", strconv.Itoa(to.X+i%2), strconv.Itoa(to.Y))
		time.Sleep(80 * time.Millisecond)
	}
	d.xdotool(t, "mouseup", "1")
	time.Sleep(300 * time.Millisecond)
}

// petTitle is the pet window's title (core: "Yui — " + the name).
func petTitle(name string) string { return "Yui — " + name }

// processEnv reads /proc/PID/environ as a list.
func processEnv(pid int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"), nil
}

// childrenOf lists the processes whose parent is pid, with their command
// names.
func childrenOf(pid int) map[int]string {
	out := map[int]string{}
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range dirs {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		fields := strings.Fields(s[close+1:])
		if len(fields) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == pid {
			child, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			out[child] = s[open+1 : close]
		}
	}
	return out
}

// TestE2EDroppedLinkDoesNotTakeThePetWindowOver is the takeover,
// end to end: a link dragged from a real browser window (Chromium, XDND
// through the X server, driven by xdotool) and dropped on the character.
// The pet window stays on its page: the dropped URL is never loaded, the
// page stays connected and answers; the same drag onto the composer's
// text field puts the URL there as text, which proves the drop reached the
// page. The window's token is in none of the processes it started.
func TestE2EDroppedLinkDoesNotTakeThePetWindowOver(t *testing.T) {
	d := startX(t, true)
	cfg, logs := t.TempDir(), t.TempDir()
	wx, wy := 100, 150
	s := seedSettings(t, cfg, wx, wy)
	preset := s.Presets[0].ID
	win := image.Rect(wx, wy, wx+winW, wy+winH)
	// No backdrop window here: an override-redirect window under
	// everything is taken by Chromium's drop-target finder for the topmost
	// window at the point (the drop would go to it, not to her).
	site := startForeignSite(t)

	a := startApp(t, d, cfg, logs)
	a.waitEvent(t, "core_ready", func(e map[string]any) bool { return e["event"] == "core_ready" })
	shot := d.awaitStill(t, win, "the character painted", func(img *image.RGBA) bool {
		return countNear(img, skinR, skinG, skinB, 6) > 3000 && countNear(img, hoodR, hoodG, hoodB, 6) > 2000
	})
	face := findColorCentroid(t, shot, skinR, skinG, skinB)

	src := image.Rect(700, 150, 1100, 450)
	startSourceBrowser(t, d, site, src)
	grab := image.Point{src.Min.X + 200, src.Min.Y + 150}

	// 1. The takeover attempt: the link dropped on her face.
	d.xdndDrag(t, grab, face)
	// 2. The same drag onto the composer's text field: the URL goes in as
	//    text, and Enter sends it — the drop reached the page, and the page
	//    (still ours, still connected) handled it.
	d.xdotool(t, "mousemove", strconv.Itoa(face.X), strconv.Itoa(face.Y), "click", "1")
	takenOver := func() {
		t.Helper()
		if hits := site.dropped(); len(hits) != 0 {
			t.Fatalf("the pet window loaded the dropped link %v: taken over (screenshot %s)", hits, savePNG(t, d.capture(t, win), "drop-taken-over.png"))
		}
	}
	input := a.composerInput(t, d, win, takenOver)
	d.xdndDrag(t, grab, input)
	// The browser took the X input focus when the drag began (there is
	// no window manager to give it back): give it to the pet window.
	d.xdotool(t, "search", "--name", "^"+petTitle(s.Presets[0].Name)+"$", "windowfocus", "--sync")
	d.xdotool(t, "mousemove", strconv.Itoa(input.X), strconv.Itoa(input.Y), "click", "1")
	d.xdotool(t, "key", "End", "Return")
	got := a.waitEvent(t, "the dropped URL sent as text", func(e map[string]any) bool {
		m, _ := e["message"].(map[string]any)
		return e["event"] == "view_in" && e["role"] == "pet" && m["type"] == "send_text"
	})
	if m := got["message"].(map[string]any); m["text"] != site.url+"/dropped-link" || got["preset"] != preset {
		t.Fatalf("the core received %v, want the dropped URL as text", got)
	}
	takenOver()
	after := d.capture(t, win)
	if countNear(after, skinR, skinG, skinB, 6) < 3000 {
		t.Fatalf("the character is gone after the drops (screenshot %s)", savePNG(t, after, "drop-after.png"))
	}
	if n := countLogEvents(t, logs, "view_disconnect"); n != 0 {
		t.Fatalf("%d view connections ended during the drops", n)
	}

	if !hasLogEvent(t, logs, "window_guard") {
		t.Fatalf("the window logged no window_guard line (its web view is not guarded)")
	}

	// The window's token went nowhere: not to WebKit's helper processes.
	pid := windowPID(t, logs, 1)
	kids := childrenOf(pid)
	if len(kids) == 0 {
		t.Fatalf("window process %d has no children (WebKit's helpers)", pid)
	}
	for kid, name := range kids {
		env, err := processEnv(kid)
		if err != nil {
			continue // gone meanwhile
		}
		for _, kv := range env {
			if strings.HasPrefix(kv, "YUI_CORE_TOKEN=") {
				t.Fatalf("%s (%d), started by the window, inherited its token", name, kid)
			}
		}
	}
}

// composerInput is the composer's text field: the open composer's box is
// found by colour below the character (the field is white).
func (a *app) composerInput(t *testing.T, d *xDisplay, win image.Rectangle, beforeFail func()) image.Point {
	t.Helper()
	deadline := time.Now().Add(e2eLimit)
	for {
		shot := d.capture(t, win)
		// The composer sits in the lower part of the window; its field is
		// the largest white area there.
		var sx, sy, n int
		for y := win.Min.Y + win.Dy()/2; y < win.Max.Y; y++ {
			for x := win.Min.X; x < win.Max.X; x++ {
				if near(shot.At(x, y), 0xff, 0xff, 0xff, 4) {
					sx, sy, n = sx+x, sy+y, n+1
				}
			}
		}
		if n > 1500 {
			return image.Point{sx / n, sy / n}
		}
		if time.Now().After(deadline) {
			beforeFail()
			t.Fatalf("no composer field (%d white px); screenshot %s", n, savePNG(t, shot, "drop-no-composer.png"))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func hasLogEvent(t *testing.T, dir, event string) bool {
	return countLogEvents(t, dir, event) > 0
}

func countLogEvents(t *testing.T, dir, event string) int {
	n := 0
	for _, l := range readLog(t, dir) {
		if l.Event == event {
			n++
		}
	}
	return n
}
