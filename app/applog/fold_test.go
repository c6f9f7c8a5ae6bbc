package applog

import (
	"bufio"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// stepClock advances by step at every reading.
type stepClock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func (c *stepClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// flips writes what one thread-status flip writes to the app log: the
// threads wire's status lines, its backend turn and the turn's end, and
// the session's push.turn_end.
func flips(lg *slog.Logger, n int) {
	for i := range n {
		id := fmt.Sprintf("sa-%d", i+1)
		lg.Info("threads.status", "state", "running", "reason", "")
		lg.Info("threads.backend_turn", "turn_id", id)
		lg.Info("threads.status", "state", "idle", "reason", "stop_on_response")
		lg.Info("threads.turn_end", "turn_id", id, "failed", false)
		lg.Info("push.turn_end", "turn_id", id)
	}
}

// 100,000 thread-status flips (issue 23: 35 MB of lines, every earlier line
// pushed out of the rotated log): folded, they write a bounded amount, the
// line before them is still in the day's file, and log_folded lines count
// every line left out.
func TestAFloodOfRepeatedEventsIsFolded(t *testing.T) {
	const n = 100_000
	// As before: the same lines, none folded.
	var plain countingWriter
	unfolded := newLogger(&plain, slog.LevelInfo, nil)
	unfolded.Handler().(*fold).st.burst = 1 << 62
	flips(unfolded.With("preset", "p-1"), n)

	dir := t.TempDir()
	clock := &stepClock{t: time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC), step: 100 * time.Microsecond}
	f := NewDailyFile(dir, AppLogPrefix, func() time.Time { return clock.t })
	lg := newLogger(f, slog.LevelInfo, clock.now).With("preset", "p-1")
	lg.Info("core_ready", "version", "test")
	flips(lg, n)
	Flush(lg)
	f.Close()

	var written int64
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, p := range files {
		fi, _ := os.Stat(p)
		written += fi.Size()
	}
	t.Logf("%d flips over %v: %d bytes of log lines before, %d folded (%d files)", n, time.Duration(n*5)*clock.step, plain.n, written, len(files))
	if len(files) != 1 {
		t.Fatalf("the log rotated: %v (earlier lines pushed out)", files)
	}
	fh, _ := os.Open(files[0])
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	sc.Scan()
	if !strings.Contains(sc.Text(), `"event":"core_ready"`) {
		t.Fatalf("first line %s, want the line before the flood", sc.Text())
	}
	shown, folded := map[string]int{}, map[string]int{}
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		ev := m["event"].(string)
		if ev == EventFolded {
			folded[m["of"].(string)] += int(m["lines"].(float64))
			continue
		}
		shown[ev]++
	}
	want := map[string]int{"threads.status": 2 * n, "threads.backend_turn": n, "threads.turn_end": n, "push.turn_end": n}
	for ev, w := range want {
		if shown[ev]+folded[ev] != w || shown[ev] == 0 {
			t.Errorf("%s: %d lines written and %d folded, want %d in all, some written", ev, shown[ev], folded[ev], w)
		}
	}
	windows := int(time.Duration(n*5)*clock.step/FoldWindow) + 1
	if bound := int64(windows * 5 * FoldBurst * 150); written > bound {
		t.Fatalf("%d bytes written, want at most %d (%d windows of %d lines an event)", written, bound, windows, FoldBurst)
	}
}

// Below the burst nothing is folded, and the window starts over.
func TestEventsBelowTheBurstAreAllWritten(t *testing.T) {
	var b strings.Builder
	clock := &stepClock{t: time.Unix(0, 0), step: time.Second}
	lg := newLogger(&b, slog.LevelInfo, clock.now)
	for range 2 * FoldBurst {
		lg.Info("push.speech", "turn_id", "1") // 2×burst lines over 2×burst seconds: ≤ burst a minute
	}
	if got := strings.Count(b.String(), `"push.speech"`); got != 2*FoldBurst || strings.Contains(b.String(), EventFolded) {
		t.Fatalf("%d of %d lines written (folded: %v)", got, 2*FoldBurst, strings.Contains(b.String(), EventFolded))
	}
}
