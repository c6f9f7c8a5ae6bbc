//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// One core per config dir: a second launch hands over, a killed core is taken over, two dirs coexist.

// TestE2ESecondLaunchHandsOver: a second `yui` for the same config dir
// hands its arguments to the running core and exits 0 at once; a plain
// one shows the characters and opens the settings; --quit ends the core.
func TestE2ESecondLaunchHandsOver(t *testing.T) {
	cfg, logs, home, rt := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	env := desktopEnv("", "", home, rt)
	c := startCore(t, env, cfg, logs, "--no-windows")
	var times []time.Duration
	for _, args := range [][]string{{"--settings"}, {}} {
		out, code, took := yui(t, env, append([]string{"--config-dir", cfg}, args...)...)
		if code != 0 {
			t.Fatalf("second launch %v: status %d: %s", args, code, out)
		}
		times = append(times, took)
	}
	t.Logf("hand-over (process start to exit): --settings %v, plain %v", times[0], times[1])
	waitLog(t, logs, "two hand-overs", func(ls []logLine) bool {
		var n, shows int
		for _, l := range ls {
			switch l.Event {
			case "instance_handover":
				n++
			case "pets_shown":
				shows++
			}
		}
		return n == 2 && shows == 1
	})
	if n := len(logEvents(t, logs, "settings_open")); n != 2 {
		t.Fatalf("settings opened %d times, want 2 (--settings and the plain launch)", n)
	}
	if n := len(logEvents(t, logs, "core_ready")); n != 1 {
		t.Fatalf("%d cores started", n)
	}
	out, code, _ := yui(t, env, "--config-dir", cfg, "--quit")
	if code != 0 {
		t.Fatalf("--quit: status %d: %s", code, out)
	}
	// --quit returns when the core has gone.
	if alive(c.cmd.Process.Pid) {
		t.Fatal("yui --quit returned while the core still runs")
	}
	if code := c.exitCode(t); code != 0 {
		t.Fatalf("core exit status %d", code)
	}
	// Nothing runs now: --quit says so and succeeds.
	out, code, _ = yui(t, env, "--config-dir", cfg, "--quit")
	if code != 0 || !strings.Contains(out, "not running") {
		t.Fatalf("--quit with nothing running: %d %q", code, out)
	}
}

// TestE2EKilledCoreIsTakenOver: a core killed with SIGKILL leaves its lock
// file and socket; the next launch becomes the core.
func TestE2EKilledCoreIsTakenOver(t *testing.T) {
	cfg, logs, home, rt := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	env := desktopEnv("", "", home, rt)
	c := startCore(t, env, cfg, logs, "--no-windows")
	c.cmd.Process.Signal(syscall.SIGKILL)
	c.exitCode(t)
	if _, err := os.Stat(filepath.Join(cfg, "instance.sock")); err != nil {
		t.Fatalf("the killed core's socket should be left: %v", err)
	}
	c2 := startCore(t, env, cfg, logs, "--no-windows")
	out, code, _ := yui(t, env, "--config-dir", cfg, "--settings")
	if code != 0 {
		t.Fatalf("hand-over to the new core: %d %s", code, out)
	}
	waitLog(t, logs, "the new core's hand-over", func(ls []logLine) bool {
		starts, handed := 0, 0
		for _, l := range ls {
			switch l.Event {
			case "core_start":
				starts++
			case "instance_handover":
				handed++
			}
		}
		return starts == 2 && handed == 1
	})
	yui(t, env, "--config-dir", cfg, "--quit")
	if code := c2.exitCode(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// TestE2ETwoConfigDirsCoexist: one core per config dir, not per user.
func TestE2ETwoConfigDirsCoexist(t *testing.T) {
	home, rt := t.TempDir(), t.TempDir()
	env := desktopEnv("", "", home, rt)
	a := startCore(t, env, t.TempDir(), t.TempDir(), "--no-windows")
	b := startCore(t, env, t.TempDir(), t.TempDir(), "--no-windows")
	for _, c := range []*core{a, b} {
		if out, code, _ := yui(t, env, "--config-dir", c.cfg, "--quit"); code != 0 {
			t.Fatalf("--quit %s: %d %s", c.cfg, code, out)
		}
		if code := c.exitCode(t); code != 0 {
			t.Fatalf("exit %d", code)
		}
	}
}
