//go:build e2e

package e2e

import (
	"fmt"
	"image"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"yui/app/settings"
	"yui/transport/push"
)

// TestE2ELifeCPU is docs/bench/life.sh's measure (it runs only with
// YUI_LIFE_BENCH=1): the CPU of Yui's whole process tree (the core, her
// window process and its WebKit children) while she stands still, while
// she sits still on an xterm, while she walks back and forth, and while
// she speaks a long reply without cues, each over the same length of
// time in one run. It reports the ratios against standing and speaking;
// it asserts nothing about time.
func TestE2ELifeCPU(t *testing.T) {
	if os.Getenv("YUI_LIFE_BENCH") != "1" {
		t.Skip("a benchmark: docs/bench/life.sh runs it")
	}
	secs := 10 * time.Second
	if s, err := strconv.Atoi(os.Getenv("YUI_LIFE_SECS")); err == nil && s > 0 {
		secs = time.Duration(s) * time.Second
	}
	d := startX(t, true)
	d.startOpenbox(t)
	backend := newLifeBackend(t)
	cfg, logs := t.TempDir(), t.TempDir()
	s := seedSettings(t, cfg, 900, screenH-winH)
	st, _, _ := settings.Open(cfg)
	st.Update(func(x *settings.Settings) {
		p := &x.Presets[0]
		p.ChatAPI, p.ChatBaseURL, p.Key, p.Voice.Engine = "push", backend.url, "life-key", "off"
	})
	chat := s.Presets[0].ChatID
	title := petTitle(s.Presets[0].Name)
	xt := exec.Command("xterm", "-geometry", "80x24+150+330")
	xt.Env = d.env()
	if err := xt.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { xt.Process.Kill(); xt.Wait() })
	until(t, "the xterm", 50*time.Millisecond, func() bool { c, ok := d.client(t, "xterm"); return ok && !c.Hidden })
	env := d.env()
	if os.Getenv("YUI_LIFE_NOCYCLE") == "1" {
		// GTK's "no animations" setting, which WebKitGTK reports to the
		// page as prefers-reduced-motion: no walk cycle (and no mouth
		// flap), so walking costs only her window's steps.
		home := t.TempDir()
		os.MkdirAll(home+"/gtk-3.0", 0o755)
		os.WriteFile(home+"/gtk-3.0/settings.ini", []byte("[Settings]\ngtk-enable-animations=0\n"), 0o644)
		env = append(env, "XDG_CONFIG_HOME="+home)
		t.Log("life: GTK animations off (prefers-reduced-motion): no walk cycle")
	}
	a := startAppEnv(t, env, []string{"--config-dir", cfg, "--log-dir", logs, "--trace-view", "--demo=false"})
	<-backend.hello
	win := d.awaitWindowAt(t, title, image.Pt(900, screenH-winH))
	d.awaitCharacter(t, win)
	settle := 30 * time.Second
	if s, err := strconv.Atoi(os.Getenv("YUI_SETTLE")); err == nil {
		settle = time.Duration(s) * time.Second
	}
	time.Sleep(settle) // WebKit's start-up frame pacing settles (docs/bench/idle.sh)
	pid := a.cmd.Process.Pid
	steps := d.countMoves(t, title)
	xpids := d.serverPIDs()
	measure := func(what string, during func(stop <-chan struct{})) float64 {
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() { during(stop); close(done) }()
		p0, x0, n0, s0 := processTicks(pid), ticksOf(xpids), steps.Load(), time.Now()
		time.Sleep(secs)
		p1, x1, n1, s1 := processTicks(pid), ticksOf(xpids), steps.Load(), time.Now()
		close(stop)
		<-done
		el := s1.Sub(s0).Seconds()
		t0, t1 := sumTicks(p0), sumTicks(p1)
		pct := 100 * float64(t1-t0) / 100 / el // CLK_TCK 100
		t.Logf("%s: %.2f%% of one core over %v (%d ticks)", what, pct, s1.Sub(s0).Round(time.Millisecond), t1-t0)
		t.Logf("life parts, %s: %s; outside the tree: %s; her window moved %.1f times a second",
			what, partsDiff(pid, p0, p1), serversDiff(xpids, x0, x1), float64(n1-n0)/el)
		return pct
	}
	still := func(stop <-chan struct{}) { <-stop }
	standing := measure("standing still", still)
	if r := backend.call(t, chat, "body_action", map[string]any{"action": "sit_on_window", "app": "xterm"}); r != "ok" {
		t.Fatal(r)
	}
	time.Sleep(2 * time.Second)
	perched := measure("sitting still on the xterm", still)
	if r := backend.call(t, chat, "body_action", map[string]any{"action": "move_to", "spot": "bottom-left"}); r != "ok" {
		t.Fatal(r)
	}
	walking := measure("walking back and forth", func(stop <-chan struct{}) {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			spot := []string{"bottom-right", "bottom-left"}[i%2]
			backend.call(t, chat, "body_action", map[string]any{"action": "move_to", "spot": spot})
		}
	})
	if os.Getenv("YUI_E2E_SHOTS") != "" {
		// What the walk looks like: her window, a few times a stride.
		done := make(chan struct{})
		go func() {
			defer close(done)
			backend.call(t, chat, "body_action", map[string]any{"action": "move_to", "spot": "bottom-right"})
		}()
		for i := range 8 {
			time.Sleep(90 * time.Millisecond)
			if _, r, ok := d.visibleWindow(t, title); ok {
				savePNG(t, d.capture(t, r), fmt.Sprintf("walk-%d.png", i))
			}
		}
		<-done
	}
	time.Sleep(2 * time.Second)
	long := strings.Repeat("She speaks a long sentence without any cue at all, to be measured. ", 12)
	turn := fmt.Sprintf("b-%d", time.Now().UnixNano())
	backend.srv.SendRender(chat, push.Render{TurnID: turn, Segments: []push.Segment{{Speech: long}}})
	time.Sleep(time.Second)
	speaking := measure("speaking without cues", still)
	t.Logf("ratios: sitting still / standing still %.2f; walking / speaking without cues %.2f (goal ≤ 1.3)", perched/standing, walking/speaking)
}

// processTicks is the user+system CPU ticks of pid and each of its
// descendants, by pid.
func processTicks(pid int) map[int]int {
	m := map[int]int{}
	var walk func(int)
	walk = func(p int) {
		m[p] = ownTicks(p)
		tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", p))
		for _, task := range tasks {
			c, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", p, task.Name()))
			for _, f := range strings.Fields(string(c)) {
				if n, err := strconv.Atoi(f); err == nil {
					walk(n)
				}
			}
		}
	}
	walk(pid)
	return m
}

func sumTicks(m map[int]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// ownTicks is pid's own user+system CPU ticks (its threads, not its children).
func ownTicks(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b)[i+2:])
	if len(f) <= 12 {
		return 0
	}
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return u + s
}

// label names pid for the report: the core, a window process (its
// --role), a WebKit child (its name).
func label(core, pid int) string {
	if pid == core {
		return "core"
	}
	cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	args := strings.Split(strings.TrimRight(string(cmd), "\x00"), "\x00")
	for i, a := range args {
		if strings.HasPrefix(a, "--role=") {
			return "window " + strings.TrimPrefix(a, "--role=")
		}
		if a == "--role" && i+1 < len(args) {
			return "window " + args[i+1]
		}
	}
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	return fmt.Sprintf("%s[%d]", strings.TrimSpace(string(comm)), pid)
}

// partsDiff reports the ticks each process of the tree spent between two
// readings (those that spent any).
func partsDiff(core int, a, b map[int]int) string {
	var parts []string
	var pids []int
	for p := range b {
		pids = append(pids, p)
	}
	slices.Sort(pids)
	for _, p := range pids {
		if d := b[p] - a[p]; d > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", label(core, p), d))
		}
	}
	return strings.Join(parts, ", ")
}

// serverPIDs finds the display's X server and compositor (outside Yui's
// tree: not in the ratios, reported beside them).
func (d *xDisplay) serverPIDs() map[string]int {
	m := map[string]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", p))
		switch strings.TrimSpace(string(comm)) {
		case "Xvfb":
			cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
			if slices.Contains(strings.Split(string(cmd), "\x00"), d.name) {
				m["Xvfb"] = p
			}
		case "xcompmgr", "openbox":
			env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p))
			if slices.Contains(strings.Split(string(env), "\x00"), "DISPLAY="+d.name) {
				m[strings.TrimSpace(string(comm))] = p
			}
		}
	}
	return m
}

func ticksOf(pids map[string]int) map[string]int {
	m := map[string]int{}
	for k, p := range pids {
		m[k] = ownTicks(p)
	}
	return m
}

func serversDiff(pids map[string]int, a, b map[string]int) string {
	var parts []string
	for _, k := range []string{"Xvfb", "xcompmgr", "openbox"} {
		if _, ok := pids[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %d", k, b[k]-a[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// countMoves counts the moves of her window's frame the X server makes
// (ConfigureNotify on it): her window's step rate.
func (d *xDisplay) countMoves(t *testing.T, title string) *atomic.Int64 {
	t.Helper()
	c, err := xgb.NewConnDisplay(d.name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	id, _, ok := d.visibleWindow(t, title)
	if !ok {
		t.Fatal("her window is not visible")
	}
	f := frameOf(t, c, xproto.Window(id))
	if err := xproto.ChangeWindowAttributesChecked(c, f, xproto.CwEventMask, []uint32{xproto.EventMaskStructureNotify}).Check(); err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	go func() {
		for {
			e, err := c.WaitForEvent()
			if e == nil && err == nil {
				return
			}
			if _, ok := e.(xproto.ConfigureNotifyEvent); ok {
				n.Add(1)
			}
		}
	}()
	return &n
}
