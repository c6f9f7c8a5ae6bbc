// Command startup measures how fast Yui's windows answer (issue 24), in
// one run, under the $DISPLAY it is given (docs/bench/startup.sh starts a
// private Xvfb + xcompmgr):
//
//   - a bare Wails window (`yui window --role bare`: the pet window's
//     options, an empty page, no core): exec → mapped;
//   - a cold start of the real binary with a fresh config: exec of the
//     core → the pet window mapped, and → its page connected with the
//     core's first sticky state applied; with each start-up step of the
//     pet window as its own log says (window_timing lines);
//   - Settings opened from the running core (a second launch with
//     --settings, as a user's second click does): exec → the settings
//     page has applied its first settings state.
//
// Each round measures the bare window, then the cold start, alternately;
// the load average is printed beside each round. The ratio is the median
// cold start (mapped and connected) over the median bare map.
//
// With -compare OTHER, each round also cold-starts OTHER right after bin
// (the order alternating each round), and the medians of both are
// printed against the same bare maps.
//
// Usage: go run ./docs/bench/startup -bin build/bin/yui [-rounds 5] [-compare OTHER]
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("bin", "build/bin/yui", "the yui binary")
	rounds := flag.Int("rounds", 5, "rounds (each: a bare window, then a cold start)")
	timeout := flag.Duration("timeout", 60*time.Second, "longest wait for one step")
	compare := flag.String("compare", "", "another yui binary (an earlier build) whose cold start is measured in the same rounds, right after bin's")
	flag.Parse()
	if err := run(*bin, *compare, *rounds, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "startup bench:", err)
		os.Exit(1)
	}
}

// line is one log line of interest.
type line struct {
	TS    time.Time `json:"ts"`
	Event string    `json:"event"`
	Role  string    `json:"role"`
	Step  string    `json:"step"`
	Ms    int64     `json:"ms"`
}

// logLines reads every JSON line of the log files under dir.
func logLines(dir string) []line {
	var out []line
	files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var l line
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				out = append(out, l)
			}
		}
		fh.Close()
	}
	return out
}

// waitStep waits for the window_timing line of role and step in dir.
func waitStep(dir, role, step string, timeout time.Duration) (line, error) {
	end := time.Now().Add(timeout)
	for time.Now().Before(end) {
		for _, l := range logLines(dir) {
			if l.Event == "window_timing" && l.Role == role && l.Step == step {
				return l, nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return line{}, fmt.Errorf("no window_timing %s %s in %v", role, step, timeout)
}

func stepsOf(dir, role string) string {
	var parts []string
	for _, l := range logLines(dir) {
		if l.Event == "window_timing" && l.Role == role {
			parts = append(parts, fmt.Sprintf("%s %d", l.Step, l.Ms))
		}
	}
	return strings.Join(parts, ", ")
}

func stop(cmd *exec.Cmd) {
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// coldStart starts binary b with a fresh config and waits for its pet
// window to be mapped and connected; it returns the running core (the
// caller stops it) and its dir, and prints the round's line.
func coldStart(b string, r int, bare float64, timeout time.Duration) (string, *exec.Cmd, float64, float64, error) {
	dir, err := os.MkdirTemp("", "yui-startup-cold-")
	if err != nil {
		return "", nil, 0, 0, err
	}
	logs := filepath.Join(dir, "logs")
	core := exec.Command(b, "--config-dir", filepath.Join(dir, "config"), "--log-dir", logs, "--demo-addr", "127.0.0.1:0")
	t0 := time.Now()
	if err := core.Start(); err != nil {
		return "", nil, 0, 0, err
	}
	lm, err := waitStep(logs, "pet", "mapped", timeout)
	if err == nil {
		var lf line
		if lf, err = waitStep(logs, "pet", "first_state", timeout); err == nil {
			m, c := ms(lm.TS.Sub(t0)), ms(lf.TS.Sub(t0))
			c = max(m, c)
			spawn := ms(lf.TS.Add(-time.Duration(lf.Ms) * time.Millisecond).Sub(t0))
			fmt.Printf("round %d: cold start of %s: exec → pet mapped %.0f ms, mapped and connected (first sticky state) %.0f ms = %.2fx the bare map; the pet window process started ≈ %.0f ms after exec; its steps: %s (load %s)\n",
				r, filepath.Base(b), m, c, c/bare, spawn, stepsOf(logs, "pet"), loadavg())
			return dir, core, m, c, nil
		}
	}
	stop(core)
	os.RemoveAll(dir)
	return "", nil, 0, 0, fmt.Errorf("cold start of %s: %w", b, err)
}

func run(bin, other string, rounds int, timeout time.Duration) error {
	bin, _ = filepath.Abs(bin)
	if other != "" {
		other, _ = filepath.Abs(other)
	}
	var oMapped, oConnected []float64
	fmt.Printf("start-up bench, %s, %d rounds, load %s\n", time.Now().UTC().Format(time.RFC3339), rounds, loadavg())
	var bare, mapped, connected, settings []float64
	for r := 1; r <= rounds; r++ {
		// The bare window.
		dir, err := os.MkdirTemp("", "yui-startup-bare-")
		if err != nil {
			return err
		}
		cmd := exec.Command(bin, "window", "--role", "bare", "--log-dir", dir)
		t0 := time.Now()
		if err := cmd.Start(); err != nil {
			return err
		}
		l, err := waitStep(dir, "bare", "mapped", timeout)
		if err != nil {
			stop(cmd)
			return fmt.Errorf("bare window: %w", err)
		}
		b := ms(l.TS.Sub(t0))
		bare = append(bare, b)
		time.Sleep(300 * time.Millisecond) // its page loads
		bareSteps := stepsOf(dir, "bare")
		stop(cmd)
		os.RemoveAll(dir)
		fmt.Printf("round %d: bare window: exec → mapped %.0f ms (steps since its process start: %s) (load %s)\n", r, b, bareSteps, loadavg())

		// The cold start (and the other binary's, alternating which goes first).
		order := []string{bin, other}
		if r%2 == 0 {
			order = []string{other, bin}
		}
		var core *exec.Cmd
		for _, b2 := range order {
			if b2 == "" {
				continue
			}
			d2, c2, m, c, err := coldStart(b2, r, b, timeout)
			if err != nil {
				return err
			}
			if b2 == bin {
				dir, core = d2, c2
				mapped, connected = append(mapped, m), append(connected, c)
				continue
			}
			oMapped, oConnected = append(oMapped, m), append(oConnected, c)
			stop(c2)
			os.RemoveAll(d2)
		}
		logs := filepath.Join(dir, "logs")
		// Settings from the running core, once it has settled.
		time.Sleep(5 * time.Second)
		load := loadavg()
		second := exec.Command(bin, "--config-dir", filepath.Join(dir, "config"), "--log-dir", logs, "--settings")
		t0 = time.Now()
		if err := second.Run(); err != nil {
			stop(core)
			return fmt.Errorf("second launch --settings: %w", err)
		}
		ls, err := waitStep(logs, "settings", "first_state", timeout)
		if err != nil {
			stop(core)
			return fmt.Errorf("settings: %w", err)
		}
		s := ms(ls.TS.Sub(t0))
		settings = append(settings, s)
		fmt.Printf("round %d: settings from the running core: second launch → form drawn (first settings state) %.0f ms; its steps: %s (load before %s)\n", r, s, stepsOf(logs, "settings"), load)
		stop(core)
		os.RemoveAll(dir)
	}
	fmt.Printf("median of %d: bare window mapped %.0f ms; cold start → pet mapped %.0f ms, mapped and connected %.0f ms: %.2fx the bare map (goal ≤ 1.2x); settings opened from a running core %.0f ms (goal ≤ 1500 ms on a quiet machine); load now %s\n",
		rounds, median(bare), median(mapped), median(connected), median(connected)/median(bare), median(settings), loadavg())
	if other != "" {
		fmt.Printf("median of %d, the compared binary %s in the same rounds: cold start → pet mapped %.0f ms, mapped and connected %.0f ms: %.2fx the bare map\n",
			rounds, other, median(oMapped), median(oConnected), median(oConnected)/median(bare))
	}
	return nil
}
