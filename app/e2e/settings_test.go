//go:build e2e

package e2e

import (
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// visibleWindow finds the mapped window named exactly name and its
// geometry, or ok false.
func (d *xDisplay) visibleWindow(t *testing.T, name string) (id uint32, r image.Rectangle, ok bool) {
	t.Helper()
	cmd := exec.Command("xdotool", "search", "--onlyvisible", "--name", "^"+name+"$")
	cmd.Env = d.env()
	out, err := cmd.Output()
	if err != nil {
		return 0, image.Rectangle{}, false
	}
	fields := strings.Fields(string(out))
	if len(fields) == 0 {
		return 0, image.Rectangle{}, false
	}
	n, _ := strconv.ParseUint(fields[len(fields)-1], 10, 32)
	cmd = exec.Command("xdotool", "getwindowgeometry", "--shell", fields[len(fields)-1])
	cmd.Env = d.env()
	out, err = cmd.Output()
	if err != nil {
		return 0, image.Rectangle{}, false
	}
	g := map[string]int{}
	for _, l := range strings.Split(string(out), "\n") {
		if k, v, found := strings.Cut(l, "="); found {
			g[k], _ = strconv.Atoi(v)
		}
	}
	return uint32(n), image.Rect(g["X"], g["Y"], g["X"]+g["WIDTH"], g["Y"]+g["HEIGHT"]), true
}

// askToClose sends WM_DELETE_WINDOW, as a window manager's close button
// does (there is no window manager under this Xvfb).
func (d *xDisplay) askToClose(t *testing.T, win uint32) {
	t.Helper()
	c, err := xgb.NewConnDisplay(d.name)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	atom := func(name string) xproto.Atom {
		r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
		if err != nil {
			t.Fatal(err)
		}
		return r.Atom
	}
	protocols, del := atom("WM_PROTOCOLS"), atom("WM_DELETE_WINDOW")
	ev := xproto.ClientMessageEvent{Format: 32, Window: xproto.Window(win), Type: protocols,
		Data: xproto.ClientMessageDataUnionData32New([]uint32{uint32(del), 0, 0, 0, 0})}
	if err := xproto.SendEventChecked(c, false, xproto.Window(win), xproto.EventMaskNoEvent, string(ev.Bytes())).Check(); err != nil {
		t.Fatal(err)
	}
}

// settingsStarts counts the settings window's process starts in the log.
func settingsStarts(t *testing.T, dir string) int {
	n := 0
	for _, l := range readLog(t, dir) {
		if l.Event == "window_start" && l.Window == "settings" {
			n++
		}
	}
	return n
}

// painted reports whether img looks like a rendered form: mostly light
// (the page background) with some dark text, not an empty black or white
// window.
func painted(img *image.RGBA) bool {
	light, dark, all := 0, 0, 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			l := (r>>8)*299/1000 + (g>>8)*587/1000 + (bl>>8)*114/1000
			all++
			switch {
			case l > 200:
				light++
			case l < 110:
				dark++
			}
		}
	}
	return light > all/2 && dark > 150 && dark < all/3
}

// TestE2ESettingsWindow opens the settings window the way a user does —
// Ctrl+, in the pet window — edits the character's name with the keyboard
// and saves with Ctrl+S, closes the window (it hides) and opens it again
// (it shows at once, same process).
func TestE2ESettingsWindow(t *testing.T) {
	d := startX(t, true)
	cfg, logs := t.TempDir(), t.TempDir()
	wx, wy := 900, 300
	s := seedSettings(t, cfg, wx, wy)
	win := image.Rect(wx, wy, wx+winW, wy+winH)
	d.backdrop(t, 0x2e8b57)
	a := startApp(t, d, cfg, logs)
	ready := a.waitEvent(t, "core_ready", func(e map[string]any) bool { return e["event"] == "core_ready" })
	pet := watchView(t, ready, s.Presets[0].ID)

	idle := d.awaitStill(t, win, "the character painted", func(img *image.RGBA) bool {
		return countNear(img, skinR, skinG, skinB, 6) > 3000
	})

	// Click her (the composer opens and the window takes the keyboard),
	// then Ctrl+, opens settings.
	face := findColorCentroid(t, idle, skinR, skinG, skinB)
	d.clickFace(t, face, win, true)
	d.xdotool(t, "key", "ctrl+comma")
	opened := time.Now()
	a.waitEvent(t, "open_settings from the pet page", func(e map[string]any) bool {
		m, _ := e["message"].(map[string]any)
		return e["event"] == "view_in" && e["role"] == "pet" && m["type"] == "open_settings"
	})

	var id uint32
	var r image.Rectangle
	until(t, "the settings window", 100*time.Millisecond, func() bool {
		var ok bool
		id, r, ok = d.visibleWindow(t, "Yui — Settings")
		return ok
	})
	shot := d.awaitStill(t, r, "the settings window showing a painted form", painted)
	t.Logf("first open: form painted %.1f s after Ctrl+, (a new window process)", time.Since(opened).Seconds())
	if r.Dx() < 600 || r.Dy() < 440 {
		t.Fatalf("settings window is %v, below its minimum 600×440", r.Size())
	}
	t.Logf("settings window %v, screenshot %s", r, savePNG(t, shot, "settings.png"))
	// Not compared with a reference like the pet screens: the form shows
	// this run's temporary settings path and fresh ids. (The README's
	// docs/screenshots/settings.png is from a `make run`, connected to the
	// demo backend; this test runs without it.)

	// The form opened on Yui with the cursor in her name: replace it and
	// save with the keyboard. (No window manager: focus follows the
	// pointer, so the pointer goes into the settings window first; the X
	// server handles that move before the keys xdotool sends after it.)
	d.xdotool(t, "mousemove", strconv.Itoa(r.Min.X+r.Dx()/2), strconv.Itoa(r.Min.Y+r.Dy()-20))
	d.xdotool(t, "key", "ctrl+a")
	d.xdotool(t, "type", "--delay", "30", "Mika")
	d.xdotool(t, "key", "ctrl+s")
	deadline := time.Now().Add(e2eLimit)
	for {
		st := readSettings(t, cfg)
		if st.Presets[0].Name == "Mika" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("name not saved (%q); screenshot %s", st.Presets[0].Name, savePNG(t, d.capture(t, r), "settings-not-saved.png"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	pet.wait(t, "the pet page told the new name", 0, func(m map[string]any) bool {
		return m["type"] == "preset" && m["name"] == "Mika"
	})
	savePNG(t, d.capture(t, r), "settings-saved.png") // for people; not asserted

	// Closing hides the window; the process stays.
	d.askToClose(t, id)
	until(t, "the settings window hidden when asked to close", 100*time.Millisecond, func() bool {
		_, _, ok := d.visibleWindow(t, "Yui — Settings")
		return !ok
	})
	if n := settingsStarts(t, logs); n != 1 {
		t.Fatalf("settings window started %d times", n)
	}

	// Opening again shows the same process's window. The click on her
	// toggles the composer: wait for the page to show it did.
	d.clickFace(t, image.Point{face.X, face.Y + 20}, win, !composerShown(d.capture(t, win)))
	d.xdotool(t, "key", "ctrl+comma")
	reopened := time.Now()
	until(t, "the hidden settings window shown again", 100*time.Millisecond, func() bool {
		_, _, ok := d.visibleWindow(t, "Yui — Settings")
		return ok
	})
	t.Logf("second open: window shown %.2f s after Ctrl+, (the hidden window)", time.Since(reopened).Seconds())
	if n := settingsStarts(t, logs); n != 1 {
		t.Fatalf("reopening started a new settings process (%d starts)", n)
	}

	if err := a.terminate(t); err != nil {
		t.Fatalf("core exit: %v", err)
	}
}

func mustGlob(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	return m
}

// TestE2ESettingsIdleExit: a settings window closed (hidden) for
// --settings-idle-exit ends its process; the next open starts a new one,
// which paints its form again. Logs the open-to-paint times: cold, hidden,
// and after the idle exit.
func TestE2ESettingsIdleExit(t *testing.T) {
	d := startX(t, true)
	cfg, logs := t.TempDir(), t.TempDir()
	seedSettings(t, cfg, 900, 300)
	a := startApp(t, d, cfg, logs, "--settings-idle-exit", "1s")
	t.Cleanup(func() {
		if t.Failed() {
			for _, f := range mustGlob(logs) {
				b, _ := os.ReadFile(f)
				t.Logf("%s:\n%s", f, b)
			}
		}
	})
	a.waitEvent(t, "core_ready", func(e map[string]any) bool { return e["event"] == "core_ready" })
	env := d.env()
	open := func(what string) (uint32, image.Rectangle, time.Duration) {
		t.Helper()
		start := time.Now()
		if out, code, _ := yui(t, env, "--config-dir", cfg, "--settings"); code != 0 {
			t.Fatalf("yui --settings: %d %s", code, out)
		}
		var id uint32
		var r image.Rectangle
		until(t, what, 100*time.Millisecond, func() bool {
			var ok bool
			id, r, ok = d.visibleWindow(t, "Yui — Settings")
			return ok
		})
		d.awaitStill(t, r, what+" painted", painted)
		return id, r, time.Since(start)
	}
	id, _, cold := open("the settings window (new process)")
	if n := settingsStarts(t, logs); n != 1 {
		t.Fatalf("settings window started %d times", n)
	}
	// Closed and opened again at once: the same process shows it.
	d.askToClose(t, id)
	waitLog(t, logs, "settings_hidden", func(ls []logLine) bool {
		for _, l := range ls {
			if l.Event == "settings_hidden" {
				return true
			}
		}
		return false
	})
	id, _, hidden := open("the hidden settings window")
	// Closed for longer than the idle exit: the process ends.
	d.askToClose(t, id)
	waitLog(t, logs, "the settings process ended after the idle exit", func(ls []logLine) bool {
		var idle, exited bool
		for _, l := range ls {
			idle = idle || l.Event == "settings_idle_exit"
			exited = exited || (idle && (l.Event == "window_exit" || l.Event == "window_stopped") && l.Window == "settings")
		}
		return idle && exited
	})
	_, _, again := open("the settings window after the idle exit (new process)")
	if n := settingsStarts(t, logs); n != 2 {
		t.Fatalf("settings window started %d times, want 2", n)
	}
	t.Logf("open-to-paint (yui --settings to a painted form): cold %.2f s, hidden %.2f s, after the idle exit %.2f s",
		cold.Seconds(), hidden.Seconds(), again.Seconds())
	if err := a.terminate(t); err != nil {
		t.Fatalf("core exit: %v", err)
	}
}
