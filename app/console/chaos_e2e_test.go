package console_test

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The chaos test drives the real binary (`yui console --json`, built by
// make; YUI_CONSOLE_BIN names it) against a scripted hostile backend for a
// few hundred turns: dropped sockets and close codes (4401 included),
// oversize, malformed and binary frames, duplicates, frames after a turn's
// end, floods of renders, reasoning and tool_status, tool calls that reuse
// ids, and the user's stop, reset, barge-in and spoken turns. Every turn
// must end, and the console's goroutines and memory (its own /stats
// command and /proc/PID/status) must stay flat. YUI_CHAOS_TURNS sets the
// number of turns (docs/bench/chaos-soak.sh runs thousands).

const chaosKey = "chaos-key"

// chaosScenarios is one cycle of the schedule; turn i plays
// chaosScenarios[i % len]. The turn's text names it, so the backend and
// the test agree without sharing state.
var chaosScenarios = []string{
	"normal", "flood", "malformed", "tools", "drop", "late", "normal", "oversize", "stop",
	"duplicate", "error", "spoken", "flood", "reset", "normal", "malformed", "barge",
	"unauthorized", "late", "tools", "report", "drop",
}

func TestConsoleChaos(t *testing.T) {
	bin := os.Getenv("YUI_CONSOLE_BIN")
	if bin == "" {
		t.Skip("the chaos test drives the built binary: YUI_CONSOLE_BIN=build/bin/yui (make e2e sets it)")
	}
	const warm = 2 * 22 // two cycles of the schedule before the first measure
	turns := chaosTurns(warm)
	h := newHostile(t)
	cc := startChaosConsole(t, bin, h.http.URL)
	cc.ready("start")

	var first chaosStats
	ended, failed := 0, 0
	began := time.Now()
	for i := range turns {
		sc := chaosScenarios[i%len(chaosScenarios)]
		cc.forget()
		cc.ready(fmt.Sprintf("turn %d (%s)", i, sc))
		if i == warm {
			first = cc.stats()
		}
		if ev, sent := cc.chaosTurn(i, sc); !sent {
			failed++
			if failed <= 10 {
				t.Logf("turn %d (%s) was not sent: %v", i, sc, ev)
			}
			if failed == 1 {
				t.Logf("chaos log tail:\n%s", cc.logTail(60))
			}
			continue
		}
		ended++
	}
	cc.ready("the end")
	last := cc.stats()
	elapsed := time.Since(began)
	cc.line("/quit")
	if err := cc.cmd.Wait(); err != nil {
		t.Fatalf("console exit: %v; stderr %s", err, cc.stderr.String())
	}
	mb := func(b float64) float64 { return b / (1 << 20) }
	counts, logBytes := cc.logSummary()
	t.Logf("chaos logs: %.1f MB in %s; %s", float64(logBytes)/(1<<20), cc.logDir, strings.Join(notableCounts(counts), " "))
	// The line the soak script reads.
	t.Logf("chaos: turns=%d ended=%d refused=%d seconds=%.0f goroutines=%d->%d heap_mb=%.1f->%.1f rss_mb=%.1f->%.1f vmrss_mb=%.1f->%.1f",
		turns, ended, failed, elapsed.Seconds(), first.goroutines, last.goroutines, mb(first.heap), mb(last.heap),
		mb(first.rss), mb(last.rss), mb(first.vmRSS), mb(last.vmRSS))
	if ended+failed != turns || ended < turns*3/4 {
		t.Fatalf("%d turns ended and %d were refused of %d", ended, failed, turns)
	}
	checkFlat(t, first, last)
}

// chaosTurns is how many turns the chaos test runs: YUI_CHAOS_TURNS or
// 330, and at least two warm-ups.
func chaosTurns(warm int) int {
	turns := 330
	if v, err := strconv.Atoi(os.Getenv("YUI_CHAOS_TURNS")); err == nil && v > 0 {
		turns = v
	}
	return max(turns, warm*2)
}

// chaosTurn sends turn i of scenario sc and waits for it to end (the
// composer unlocks). sent is false, with the refusing event, when the
// turn could not go out (a failure or error line came first).
func (cc *chaosConsole) chaosTurn(i int, sc string) (ev map[string]any, sent bool) {
	t := cc.t
	t.Helper()
	text := fmt.Sprintf("chaos %d %s", i, sc)
	from := cc.count()
	if sc == "spoken" {
		cc.line("/spoken " + text)
	} else {
		cc.line(text)
	}
	// The turn went out (turn_sent), or it could not (a failure or
	// error line first).
	at := cc.waitFrom(from, 30*time.Second, func(m map[string]any) bool {
		return (m["event"] == "turn_sent" && m["text"] == text) || m["event"] == "failure_line" || m["event"] == "error_line"
	})
	if at < 0 {
		t.Fatalf("turn %d (%s): neither sent nor refused; stderr %s", i, sc, cc.stderr.String())
	}
	if ev := cc.event(at); ev["event"] != "turn_sent" {
		return ev, false
	}
	switch sc {
	case "stop":
		cc.line("/stop")
	case "reset":
		cc.line("/reset")
	case "barge":
		cc.line("/barge")
	}
	// Every turn ends: the composer unlocks.
	if cc.waitFrom(at, 60*time.Second, func(m map[string]any) bool {
		return m["event"] == "composer" && m["locked"] == false
	}) < 0 {
		t.Fatalf("turn %d (%s) did not end; stderr %s", i, sc, cc.stderr.String())
	}
	return nil, true
}

// notableCounts lists the log events worth a line ("ws_close=3"),
// sorted.
func notableCounts(counts map[string]int) []string {
	var notable []string
	for ev, n := range counts {
		if strings.HasPrefix(ev, "ws_close") || strings.HasPrefix(ev, "frame_") || strings.HasPrefix(ev, "tool_") ||
			strings.HasPrefix(ev, "playback.") || ev == "turn_forgotten" || ev == "turn_not_sent" || ev == "ws_open_failed" {
			notable = append(notable, fmt.Sprintf("%s=%d", ev, n))
		}
	}
	slices.Sort(notable)
	return notable
}

// checkFlat fails t when the goroutines, the live heap or the RSS grew
// from first to last.
func checkFlat(t *testing.T, first, last chaosStats) {
	t.Helper()
	mb := func(b float64) float64 { return b / (1 << 20) }
	// Flat: no goroutine per turn, no memory per turn. The margins are
	// what the state kept after two cycles may still vary by (a socket's
	// helpers, the sizes of bounded buffers), far below what a leak of
	// one goroutine or a few KB per turn over hundreds of turns makes.
	if last.goroutines > first.goroutines+4 {
		t.Errorf("goroutines %d -> %d", first.goroutines, last.goroutines)
	}
	if last.heap > first.heap*1.5+4<<20 {
		t.Errorf("live heap %.1f MB -> %.1f MB", mb(first.heap), mb(last.heap))
	}
	if last.vmRSS > first.vmRSS*1.5+16<<20 {
		t.Errorf("RSS %.1f MB -> %.1f MB", mb(first.vmRSS), mb(last.vmRSS))
	}
}
