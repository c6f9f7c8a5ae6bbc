//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/app/settings"
	"yui/app/tray/traytest"
)

// The installed-app behaviour of the real binary: the tray on a private
// session bus (a StatusNotifierWatcher stand-in reads and clicks it), a
// run with no session bus, and one core per config dir.

// desktopEnv is the environment of a core under test: its own display,
// session bus ("" for none), autostart directory (XDG_CONFIG_HOME) and
// runtime directory, nothing of the caller's desktop.
func desktopEnv(display, bus, configHome, runtimeDir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "WAYLAND_DISPLAY":
			continue
		}
		env = append(env, kv)
	}
	// NO_AT_BRIDGE: GTK would look for an accessibility bus on the
	// private session bus and warn that there is none.
	env = append(env, "XDG_CONFIG_HOME="+configHome, "XDG_RUNTIME_DIR="+runtimeDir, "NO_AT_BRIDGE=1")
	if display != "" {
		env = append(env, "DISPLAY="+display, "XAUTHORITY=/dev/null")
	}
	if bus != "" {
		env = append(env, "DBUS_SESSION_BUS_ADDRESS="+bus)
	}
	return env
}

// core is a running `yui` core process.
type core struct {
	*app
	cfg, logs string
	env       []string
}

func startCore(t *testing.T, env []string, cfg, logs string, extra ...string) *core {
	t.Helper()
	a := startAppEnv(t, env, append([]string{"--config-dir", cfg, "--log-dir", logs, "--trace-view", "--demo=false"}, extra...))
	a.waitEvent(t, "core_ready", func(e map[string]any) bool { return e["event"] == "core_ready" })
	return &core{app: a, cfg: cfg, logs: logs, env: env}
}

// exitCode waits for the core to exit (bounded by e2eLimit, which only
// stops a hang) and returns its exit code.
func (c *core) exitCode(t *testing.T) int {
	t.Helper()
	select {
	case <-c.exited:
		var ee *exec.ExitError
		if errors.As(c.err, &ee) {
			return ee.ExitCode()
		}
		if c.err != nil {
			t.Fatalf("wait: %v", c.err)
		}
		return 0
	case <-time.After(e2eLimit):
		t.Fatalf("the core did not exit within %v", e2eLimit)
		return -1
	}
}

// yui runs the binary once (a second launch) and returns its output and
// exit status.
func yui(t *testing.T, env []string, args ...string) (string, int, time.Duration) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = env
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(out), ee.ExitCode(), took
	}
	if err != nil {
		t.Fatalf("run yui %v: %v", args, err)
	}
	return string(out), 0, took
}

// logEvents returns the log lines of one event.
func logEvents(t *testing.T, dir, event string) []logLine {
	var out []logLine
	for _, l := range readLog(t, dir) {
		if l.Event == event {
			out = append(out, l)
		}
	}
	return out
}

// waitLog waits for the log to satisfy cond (the log file is the thing
// awaited; it is re-read until then).
func waitLog(t *testing.T, dir, what string, cond func([]logLine) bool) {
	t.Helper()
	deadline := time.Now().Add(e2eLimit)
	for !cond(readLog(t, dir)) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s in the log", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// children lists the live processes whose parent is pid.
func children(pid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) && f[0] != "Z" {
			out = append(out, n)
		}
	}
	return out
}

func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z"
}

// TestE2ETrayMenuDrivesTheRealCore: the real binary under Xvfb with two
// characters, on a private session bus whose StatusNotifierWatcher is the
// traytest stand-in. The item shows the app icon and title; its menu
// lists the characters and the app items; each item acts on the core:
// a character's item hides and shows her window, Mute all voices and Quiet companion are saved,
// Start at login writes and removes a valid autostart entry, Settings…
// opens the settings window, Quit Yui ends everything with status 0.
func TestE2ETrayMenuDrivesTheRealCore(t *testing.T) {
	d := startX(t, false)
	bus := traytest.StartBus(t)
	w, err := traytest.NewWatcher(bus)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	cfg, logs, home, rt := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	st, _, err := settings.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st.Update(func(s *settings.Settings) {
		s.Presets[0].Window = &settings.Position{X: 100, Y: 100}
		mio := settings.NewPreset("Mio")
		mio.Window = &settings.Position{X: 600, Y: 100}
		s.Presets = append(s.Presets, mio)
	})
	env := desktopEnv(d.name, bus, home, rt)
	c := startCore(t, env, cfg, logs)

	it, err := w.WaitItem(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := it.Property(ctx, "Title"); err != nil || v.Value() != "Yui" {
		t.Fatalf("Title %v %v", v, err)
	}
	// The icon is the app icon (64 px, from build/appicon.png), each
	// pixel opaque or clear (app/tray: opaqueOrClear).
	got, err := it.Icon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := trayIcon(t)
	if got.Bounds() != want.Bounds() {
		t.Fatalf("icon %v, want %v", got.Bounds(), want.Bounds())
	}
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			if g, w := got.At(x, y).(color.NRGBA), want.NRGBAAt(x, y); g != w {
				t.Fatalf("icon pixel (%d,%d) = %v, want %v", x, y, g, w)
			}
		}
	}

	menu := func(want ...string) {
		t.Helper()
		items, err := it.WaitMenu(ctx, func(m []traytest.MenuItem) bool { return slices.Equal(traytest.Labels(m), want) })
		if err != nil {
			t.Fatalf("menu %q, want %q: %v", traytest.Labels(items), want, err)
		}
	}
	click := func(label string) {
		t.Helper()
		if err := it.Click(ctx, label); err != nil {
			t.Fatal(err)
		}
	}
	menu("[x] Yui", "[x] Mio", "---", "Listen", "[ ] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[ ] Start at login", "---", "Quit Yui")

	waitWindow := func(name string, shown bool) {
		t.Helper()
		until(t, fmt.Sprintf("window %q shown=%v", name, shown), 100*time.Millisecond, func() bool {
			_, _, ok := d.visibleWindow(t, name)
			return ok == shown
		})
	}
	waitWindow("Yui — Yui", true)
	waitWindow("Yui — Mio", true)

	// A character's item hides her (her window goes) and shows her again.
	yuiWin, _, _ := d.visibleWindow(t, "Yui — Yui")
	click("Mio")
	menu("[x] Yui", "[ ] Mio", "---", "Listen", "[ ] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[ ] Start at login", "---", "Quit Yui")
	waitWindow("Yui — Mio", false)
	// Yui's window is the same one throughout (a hidden character's window
	// process ends, so a window that came back would be another). One
	// xdotool search can fail while Mio's windows are being destroyed
	// under it, so this waits for a search that answers.
	var again uint32
	until(t, "Yui's window found after hiding Mio", 100*time.Millisecond, func() bool {
		var ok bool
		again, _, ok = d.visibleWindow(t, "Yui — Yui")
		return ok
	})
	if again != yuiWin {
		t.Fatalf("hiding Mio hid Yui: her window %d is now %d", yuiWin, again)
	}
	click("Mio")
	menu("[x] Yui", "[x] Mio", "---", "Listen", "[ ] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[ ] Start at login", "---", "Quit Yui")
	waitWindow("Yui — Mio", true)

	// Mute all voices: checked and saved.
	click("Mute all voices")
	menu("[x] Yui", "[x] Mio", "---", "Listen", "[x] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[ ] Start at login", "---", "Quit Yui")
	if !readSettings(t, cfg).Audio.Muted {
		t.Fatal("Mute all voices not saved")
	}

	// Quiet companion: checked and saved, then off again.
	click("Quiet companion")
	menu("[x] Yui", "[x] Mio", "---", "Listen", "[x] Mute all voices", "[x] Quiet companion", "Settings…", "Reset positions", "[ ] Start at login", "---", "Quit Yui")
	if !readSettings(t, cfg).Proactive.Quiet {
		t.Fatal("Quiet companion not saved")
	}
	click("Quiet companion")
	menu("[x] Yui", "[x] Mio", "---", "Listen", "[x] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[ ] Start at login", "---", "Quit Yui")
	if readSettings(t, cfg).Proactive.Quiet {
		t.Fatal("Quiet companion still saved on")
	}

	// Start at login: a valid autostart entry that starts this binary,
	// then none.
	entry := filepath.Join(home, "autostart", "yui.desktop")
	click("Start at login")
	menu("[x] Yui", "[x] Mio", "---", "Listen", "[x] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[x] Start at login", "---", "Quit Yui")
	b, err := os.ReadFile(entry)
	if err != nil {
		t.Fatalf("no autostart entry: %v", err)
	}
	if !bytes.Contains(b, []byte("\nExec="+binary(t)+"\n")) {
		t.Fatalf("autostart entry does not start %s:\n%s", binary(t), b)
	}
	if out, err := exec.Command("desktop-file-validate", entry).CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Fatalf("desktop-file-validate: %v %s", err, out)
	}
	click("Start at login")
	menu("[x] Yui", "[x] Mio", "---", "Listen", "[x] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[ ] Start at login", "---", "Quit Yui")
	if _, err := os.Stat(entry); !os.IsNotExist(err) {
		t.Fatalf("autostart entry still there: %v", err)
	}

	// Settings… opens the settings window.
	click("Settings…")
	waitWindow("Yui — Settings", true)

	// Quit Yui: every window process ends, then the core, with status 0.
	kids := children(c.cmd.Process.Pid)
	if len(kids) < 3 {
		t.Fatalf("expected two pet windows and the settings window as children, got %v", kids)
	}
	click("Quit Yui")
	if code := c.exitCode(t); code != 0 {
		t.Fatalf("exit status %d after Quit", code)
	}
	for _, k := range kids {
		if alive(k) {
			t.Errorf("window process %d outlived the core", k)
		}
	}
	if len(logEvents(t, logs, "core_stopped")) != 1 {
		t.Error("no core_stopped in the log")
	}
}

// trayIcon is what a tray host should show: the 64 px app icon with
// every pixel made opaque or clear.
func trayIcon(t *testing.T) *image.NRGBA {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, "build/linux/icons/hicolor/64x64/apps/yui.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	out := image.NewNRGBA(src.Bounds())
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			c := color.NRGBAModel.Convert(src.At(x, y)).(color.NRGBA)
			if c.A >= 128 {
				c.A = 255
			} else {
				c = color.NRGBA{}
			}
			out.SetNRGBA(x, y, c)
		}
	}
	return out
}

// TestE2ENoSessionBus: with no session bus at all the core runs without
// a tray (saying so once in the log), and quits cleanly.
func TestE2ENoSessionBus(t *testing.T) {
	cfg, logs, home, rt := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	env := desktopEnv("", "", home, rt) // no DBUS_SESSION_BUS_ADDRESS, no $XDG_RUNTIME_DIR/bus
	c := startCore(t, env, cfg, logs, "--no-windows")
	if out, code, _ := yui(t, env, "--config-dir", cfg, "--quit"); code != 0 {
		t.Fatalf("yui --quit: status %d: %s", code, out)
	}
	if code := c.exitCode(t); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	if n := len(logEvents(t, logs, "tray_unavailable")); n != 1 {
		t.Fatalf("tray_unavailable logged %d times, want once", n)
	}
	if len(logEvents(t, logs, "tray_started")) != 0 {
		t.Fatal("a tray started without a bus")
	}
}
