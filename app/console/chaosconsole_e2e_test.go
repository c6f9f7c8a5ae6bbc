package console_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The chaos test's console process: its input, its events and log, and the stats it is judged on.

// chaosConsole is the console process and what it printed.
type chaosConsole struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	mu     sync.Mutex
	cond   *sync.Cond
	events []map[string]any // events[i] is event number base+i
	base   int
	done   bool
	stderr strings.Builder
	logDir string
}

// logTail returns the last n lines of the console's app log.
func (cc *chaosConsole) logTail(n int) string {
	files, _ := os.ReadDir(cc.logDir)
	var newest string
	var at time.Time
	for _, f := range files {
		fi, err := f.Info()
		if err == nil && strings.HasPrefix(f.Name(), "yui-2") && fi.ModTime().After(at) {
			newest, at = f.Name(), fi.ModTime()
		}
	}
	b, _ := os.ReadFile(cc.logDir + "/" + newest)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// logSummary counts the console's log lines by event (ws_close also by
// code and side) and sums the log files' sizes.
func (cc *chaosConsole) logSummary() (map[string]int, int64) {
	counts := map[string]int{}
	var size int64
	files, _ := os.ReadDir(cc.logDir)
	for _, f := range files {
		b, err := os.ReadFile(cc.logDir + "/" + f.Name())
		if err != nil {
			continue
		}
		size += int64(len(b))
		for _, l := range strings.Split(string(b), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) != nil {
				continue
			}
			ev, _ := m["event"].(string)
			if ev == "ws_close" {
				ev = fmt.Sprintf("ws_close(%v,%v)", m["code"], m["by"])
			}
			counts[ev]++
		}
	}
	return counts, size
}

func startChaosConsole(t *testing.T, bin, url string) *chaosConsole {
	t.Helper()
	logDir := t.TempDir()
	cmd := exec.Command(bin, "console", "--json", "--config-dir", t.TempDir(), "--log-dir", logDir,
		"--url", url, "--speech-rate", "0")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "YUI_KEY=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "YUI_KEY="+chaosKey)
	cc := &chaosConsole{t: t, cmd: cmd, logDir: logDir}
	cc.cond = sync.NewCond(&cc.mu)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &cc.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cc.stdin = stdin
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	go func() {
		// Read everything at once into memory, so the console never
		// waits on this test to print.
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				var m map[string]any
				if json.Unmarshal(line, &m) == nil {
					// Only what the test checks: a flood prints tens of
					// thousands of events, some with big texts.
					keep := map[string]any{"event": m["event"]}
					for _, k := range []string{"text", "locked", "state", "goroutines", "heap_bytes", "rss_bytes"} {
						if v, ok := m[k]; ok {
							if s, isStr := v.(string); isStr && len(s) > 200 {
								continue
							}
							keep[k] = v
						}
					}
					m = keep
					cc.mu.Lock()
					cc.events = append(cc.events, m)
					cc.cond.Broadcast()
					cc.mu.Unlock()
				}
			}
			if err != nil {
				cc.mu.Lock()
				cc.done = true
				cc.cond.Broadcast()
				cc.mu.Unlock()
				return
			}
		}
	}()
	return cc
}

func (cc *chaosConsole) line(s string) {
	cc.t.Helper()
	if _, err := io.WriteString(cc.stdin, s+"\n"); err != nil {
		cc.t.Fatalf("write %q: %v", s, err)
	}
}

// waitFrom returns the index of the first event at or after from that
// matches pred, waiting up to d for it; -1 when none came.
func (cc *chaosConsole) waitFrom(from int, d time.Duration, pred func(map[string]any) bool) int {
	deadline := time.Now().Add(d)
	timer := time.AfterFunc(d, func() { cc.mu.Lock(); cc.cond.Broadcast(); cc.mu.Unlock() })
	defer timer.Stop()
	cc.mu.Lock()
	defer cc.mu.Unlock()
	for i := max(from, cc.base); ; {
		for ; i < cc.base+len(cc.events); i++ {
			if pred(cc.events[i-cc.base]) {
				return i
			}
		}
		if cc.done || !time.Now().Before(deadline) {
			return -1
		}
		cc.cond.Wait()
	}
}

func (cc *chaosConsole) count() int {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.base + len(cc.events)
}

func (cc *chaosConsole) event(i int) map[string]any {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.events[i-cc.base]
}

// forget drops the events before the last socket event: a long run keeps
// only what the next turn may still look at.
func (cc *chaosConsole) forget() {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	keep := len(cc.events)
	for i := len(cc.events) - 1; i >= 0; i-- {
		if cc.events[i]["event"] == "socket" {
			keep = i
			break
		}
	}
	cc.events = append([]map[string]any(nil), cc.events[keep:]...)
	cc.base += keep
}

// socketState is the state of the last socket event.
func (cc *chaosConsole) socketState() string {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	for i := len(cc.events) - 1; i >= 0; i-- {
		if cc.events[i]["event"] == "socket" {
			s, _ := cc.events[i]["state"].(string)
			return s
		}
	}
	return ""
}

// ready waits until the socket is ready, reconnecting after a 4401.
func (cc *chaosConsole) ready(what string) {
	cc.t.Helper()
	for {
		// Count first: a socket event that lands between the check and
		// the wait is then still seen.
		from := cc.count()
		st := cc.socketState()
		if st == "ready" {
			return
		}
		if st == "failed" {
			cc.line("/reconnect")
		}
		if cc.waitFrom(from, 60*time.Second, func(m map[string]any) bool { return m["event"] == "socket" }) < 0 {
			cc.t.Fatalf("%s: the socket did not come back (state %s); stderr %s", what, cc.socketState(), cc.stderr.String())
		}
	}
}

type chaosStats struct {
	goroutines       int
	heap, rss, vmRSS float64 // bytes
}

// stats asks the console for /stats and reads /proc/PID/status too.
func (cc *chaosConsole) stats() chaosStats {
	cc.t.Helper()
	from := cc.count()
	cc.line("/stats")
	i := cc.waitFrom(from, 30*time.Second, func(m map[string]any) bool { return m["event"] == "stats" })
	if i < 0 {
		cc.t.Fatal("no stats event")
	}
	m := cc.event(i)
	s := chaosStats{goroutines: int(m["goroutines"].(float64)), heap: m["heap_bytes"].(float64), rss: m["rss_bytes"].(float64)}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cc.cmd.Process.Pid)); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
				s.vmRSS = kb * 1024
			}
		}
	}
	return s
}
