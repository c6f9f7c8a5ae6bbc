//go:build linux

package listen_test

import (
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"yui/app/audio/pulse"
	"yui/app/audio/pulse/pulsetest"
	"yui/app/listen"
)

// TestFigures measures the cost of listening at rest on a private
// PulseAudio with a quiet microphone: the process's CPU time over the
// same span with listening off (the baseline) and on, and the sound
// server's share. It is a benchmark, not a check: it runs only with
// YUI_LISTEN_FIGURES=1 (docs/bench/listen.sh).
func TestFigures(t *testing.T) {
	if os.Getenv("YUI_LISTEN_FIGURES") != "1" {
		t.Skip("a benchmark: YUI_LISTEN_FIGURES=1 (docs/bench/listen.sh)")
	}
	secs := 20
	if s, err := strconv.Atoi(os.Getenv("YUI_LISTEN_SECS")); err == nil && s > 0 {
		secs = s
	}
	span := time.Duration(secs) * time.Second
	srv := pulsetest.StartWithMic(t)
	in := pulse.NewInput(pulse.Options{Server: srv.Addr})
	l := listen.New(listen.Options{Input: in, Logger: slog.New(slog.DiscardHandler)}, listen.Config{})
	defer l.Close()

	measure := func(on bool) (self, server time.Duration) {
		l.SetConfig(listen.Config{On: on})
		time.Sleep(time.Second) // settle: the stream opens or closes
		s0, p0 := selfCPU(), procCPU(srv.Pid())
		time.Sleep(span)
		return selfCPU() - s0, procCPU(srv.Pid()) - p0
	}
	offSelf, offSrv := measure(false)
	onSelf, onSrv := measure(true)
	if !l.State().Open {
		t.Fatal("the microphone was not open while listening")
	}
	pct := func(d time.Duration) float64 { return 100 * d.Seconds() / span.Seconds() }
	ratio := func(a, b time.Duration) string {
		if b <= 0 {
			return "baseline 0"
		}
		return fmt.Sprintf("%.2fx", a.Seconds()/b.Seconds())
	}
	fmt.Printf("listen figures, %s, %v per state, 100 ms chunks\n", time.Now().UTC().Format(time.RFC3339), span)
	fmt.Printf("CPU at rest, listening on vs off: core %.2f %% vs %.2f %% of one core (+%.2f %%; %s)\n",
		pct(onSelf), pct(offSelf), pct(onSelf)-pct(offSelf), ratio(onSelf, offSelf))
	fmt.Printf("  the sound server meanwhile: %.2f %% vs %.2f %% (+%.2f %%)\n", pct(onSrv), pct(offSrv), pct(onSrv)-pct(offSrv))
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU reads a process's user+system time from /proc (clock ticks of
// 10 ms).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	u, _ := strconv.ParseInt(f[11], 10, 64)
	k, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+k) * 10 * time.Millisecond
}
