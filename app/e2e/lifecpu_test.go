//go:build e2e

package e2e

import (
	"fmt"
	"image"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

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
	a := startApp(t, d, cfg, logs)
	<-backend.hello
	win := d.awaitWindowAt(t, title, image.Pt(900, screenH-winH))
	d.awaitCharacter(t, win)
	settle := 30 * time.Second
	if s, err := strconv.Atoi(os.Getenv("YUI_SETTLE")); err == nil {
		settle = time.Duration(s) * time.Second
	}
	time.Sleep(settle) // WebKit's start-up frame pacing settles (docs/bench/idle.sh)
	pid := a.cmd.Process.Pid
	measure := func(what string, during func(stop <-chan struct{})) float64 {
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() { during(stop); close(done) }()
		t0, s0 := treeTicks(pid), time.Now()
		time.Sleep(secs)
		t1, s1 := treeTicks(pid), time.Now()
		close(stop)
		<-done
		pct := 100 * float64(t1-t0) / 100 / s1.Sub(s0).Seconds() // CLK_TCK 100
		t.Logf("%s: %.2f%% of one core over %v (%d ticks)", what, pct, s1.Sub(s0).Round(time.Millisecond), t1-t0)
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
	time.Sleep(2 * time.Second)
	long := strings.Repeat("She speaks a long sentence without any cue at all, to be measured. ", 12)
	turn := fmt.Sprintf("b-%d", time.Now().UnixNano())
	backend.srv.SendRender(chat, push.Render{TurnID: turn, Segments: []push.Segment{{Speech: long}}})
	time.Sleep(time.Second)
	speaking := measure("speaking without cues", still)
	t.Logf("ratios: sitting still / standing still %.2f; walking / speaking without cues %.2f (goal ≤ 1.3)", perched/standing, walking/speaking)
}

// treeTicks is the user+system CPU ticks of pid and its descendants.
func treeTicks(pid int) int {
	total := 0
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err == nil {
		if i := strings.LastIndexByte(string(b), ')'); i > 0 {
			f := strings.Fields(string(b)[i+2:])
			if len(f) > 12 {
				u, _ := strconv.Atoi(f[11])
				s, _ := strconv.Atoi(f[12])
				total += u + s
			}
		}
	}
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, task := range tasks {
		c, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, task.Name()))
		for _, f := range strings.Fields(string(c)) {
			if n, err := strconv.Atoi(f); err == nil {
				total += treeTicks(n)
			}
		}
	}
	return total
}
