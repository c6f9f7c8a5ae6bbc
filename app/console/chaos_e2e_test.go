package console_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"yui/transport/push"
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

// hostile is the scripted backend: a raw WebSocket server that reads
// hello, answers ready (or misbehaves first), and plays each turn's
// scenario.
type hostile struct {
	t    *testing.T
	http *httptest.Server
	mu   sync.Mutex
	n    int // connections so far
}

func newHostile(t *testing.T) *hostile {
	h := &hostile{t: t}
	h.http = httptest.NewServer(h)
	t.Cleanup(h.http.Close)
	return h
}

// hconn is one socket of the hostile backend.
type hconn struct {
	c       *websocket.Conn
	n       int
	results chan push.ToolResult
	ctx     context.Context
}

func (h *hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(-1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, raw, err := c.Read(ctx)
	if err != nil {
		return
	}
	f, err := push.DecodeOutbound(raw)
	hello, ok := f.(push.Hello)
	if err != nil || !ok || hello.Key != chaosKey {
		c.Close(4401, "unauthorized")
		return
	}
	h.mu.Lock()
	h.n++
	hc := &hconn{c: c, n: h.n, results: make(chan push.ToolResult, 1024), ctx: ctx}
	h.mu.Unlock()
	switch hc.n % 4 {
	case 1: // a frame before ready: the client logs and ignores it
		hc.send(push.Render{TurnID: "early", Segments: []push.Segment{{Speech: "Too early."}}})
		hc.send(push.Ready{ChatID: hello.ChatID})
	case 2: // ready with max_turn_bytes, sent twice
		hc.send(push.Ready{ChatID: hello.ChatID, MaxTurnBytes: 1 << 20})
		hc.send(push.Ready{ChatID: hello.ChatID})
	default:
		hc.send(push.Ready{ChatID: hello.ChatID})
	}
	for {
		_, raw, err := c.Read(ctx)
		if err != nil {
			return
		}
		f, err := push.DecodeOutbound(raw)
		if err != nil {
			continue
		}
		switch f := f.(type) {
		case push.Turn:
			go hc.play(f)
		case push.Stop:
			for _, id := range f.TurnIDs {
				hc.send(push.Render{TurnID: id, Segments: []push.Segment{{Speech: "Stopped, but here anyway."}}})
				hc.send(push.TurnEnd{TurnID: id})
			}
		case push.ToolResult:
			select {
			case hc.results <- f:
			default:
			}
		}
	}
}

func (hc *hconn) send(f push.Frame) {
	b, err := push.Encode(f)
	if err == nil {
		hc.raw(string(b))
	}
}

func (hc *hconn) raw(s string) { _ = hc.c.Write(hc.ctx, websocket.MessageText, []byte(s)) }

func (hc *hconn) render(id, speech string, cues ...push.Cue) {
	hc.send(push.Render{TurnID: id, Source: "chaos", Segments: []push.Segment{{Cues: cues, Speech: speech}}})
}

func (hc *hconn) end(id string) {
	hc.send(push.TurnEnd{TurnID: id, Usage: &push.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15}})
}

// call sends a tool_call and waits for its result (false: none came).
func (hc *hconn) call(id, turnID, name, args string) bool {
	hc.raw(fmt.Sprintf(`{"type":"tool_call","id":%q,"turn_id":%q,"name":%q,"arguments":%s}`, id, turnID, name, args))
	t := time.NewTimer(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case r := <-hc.results:
			if r.ID == id {
				return true
			}
		case <-t.C:
			return false
		case <-hc.ctx.Done():
			return false
		}
	}
}

// play runs the scenario the turn's text names.
func (hc *hconn) play(tu push.Turn) {
	f := strings.Fields(tu.Text)
	if len(f) < 3 {
		hc.render(tu.TurnID, "Hm?")
		hc.end(tu.TurnID)
		return
	}
	i, _ := strconv.Atoi(f[1])
	id := tu.TurnID
	happy := push.Cue{EmotionID: "happy", MotionID: "wave"}
	switch f[2] {
	case "normal":
		hc.send(push.Speech{TurnID: id, Segments: []push.Segment{{Cues: []push.Cue{happy}, Speech: "Working on it."}}})
		hc.send(push.Speech{TurnID: id, Segments: []push.Segment{{Speech: "Working on it."}}}) // a repeat
		hc.send(push.Reasoning{TurnID: id, Delta: "Let me think. "})
		hc.send(push.ToolStatus{TurnID: id, State: "running", ToolID: "read_file"})
		hc.send(push.ToolStatus{TurnID: id, State: "done", ToolID: "read_file"})
		hc.send(push.Render{TurnID: id, Source: "chaos", Reasoning: "Let me think. Done.",
			Segments: []push.Segment{{Speech: "Working on it. All done."}, {Cues: []push.Cue{{EmotionID: "calm"}}, Speech: "[SILENT]"}}})
		hc.end(id)
	case "report":
		bg := fmt.Sprintf("bg-report-%d", i)
		hc.render(bg, "By the way, the build finished.", happy)
		hc.end(bg)
		hc.render(id, "Anything else?")
		hc.end(id)
	case "error", "spoken":
		hc.send(push.ErrorFrame{TurnID: id, Message: "Provider returned 429:\n" + strings.Repeat("rate limit ", 1000)})
		hc.end(id)
	case "oversize":
		hc.raw(`{"type":"render","turn_id":"` + id + `","segments":[{"speech":"` + strings.Repeat("x", 300<<10) + `"}]}`)
		hc.raw(`{"type":"reasoning","turn_id":"` + id + `","delta":"` + strings.Repeat("y", 257<<10) + `"}`)
		hc.render(id, "The big one was dropped.")
		hc.end(id)
	case "malformed":
		for _, s := range []string{
			`not json at all`, `[1,2,3]`, `{"type":"render"}`, `{"type":"render","turn_id":5,"segments":[]}`,
			`{"type":"mystery","turn_id":"` + id + `"}`, `{"type":"tool_status","turn_id":"` + id + `","state":"exploded","tool_id":"x"}`,
			`{"type":"tool_call","id":7,"name":"look"}`, `{"type":"delegations","items":[{"id":"","state":"x"}]}`,
			`{"type":"render","turn_id":"` + strings.Repeat("L", 300) + `","segments":[]}`,
			`{"type":"reasoning","turn_id":"` + id + `","delta":` + "\"\\ud800\"" + `}`,
			`{"type":"delegations","items":[{"id":"d-1","title":"` + strings.Repeat("t", 5000) + `","started_at":1,"state":"running"}]}`,
		} {
			hc.raw(s)
		}
		_ = hc.c.Write(hc.ctx, websocket.MessageBinary, []byte{0xff, 0x00, 0x01})
		hc.render(id, "Still here.")
		hc.send(push.TurnEnd{TurnID: id}) // a usage of the wrong shape comes next, for another turn
		hc.raw(`{"type":"turn_end","turn_id":"nobody","usage":{"total_tokens":"many"}}`)
	case "duplicate":
		hc.render(id, "Once.")
		hc.render(id, "Once.")
		hc.raw(`{"type":"tool_call","id":"dup-` + strconv.Itoa(i) + `","turn_id":"` + id + `","name":"look","arguments":{"at":"body"}}`)
		hc.raw(`{"type":"tool_call","id":"dup-` + strconv.Itoa(i) + `","turn_id":"` + id + `","name":"look","arguments":{"at":"body"}}`)
		hc.end(id)
		hc.end(id)
	case "late":
		hc.end(id)
		hc.render(id, "A late thought.")
		hc.send(push.ErrorFrame{TurnID: id, Message: "too late"})
		hc.send(push.ToolStatus{TurnID: id, State: "running", ToolID: "late_tool"})
		hc.send(push.Reasoning{TurnID: id, Delta: "after the end"})
	case "flood":
		bg := fmt.Sprintf("bg-flood-%d", i) // never ends
		speech := strings.Repeat("Flooding the queue with words. ", 60)
		for range 200 {
			hc.render(bg, speech, happy)
		}
		for range 20 {
			hc.send(push.Reasoning{TurnID: id, Delta: strings.Repeat("r", 100_000)})
		}
		for range 300 {
			hc.send(push.ToolStatus{TurnID: id, State: "running", ToolID: strings.Repeat("t", 5000)})
		}
		for k := range 50 {
			hc.send(push.Delegations{Items: []push.Delegation{{ID: fmt.Sprintf("d-%d-%d", i, k), Title: "Flood", StartedAt: 1, State: "running"}}})
		}
		hc.render(id, "Made it through the flood.")
		hc.end(id)
	case "tools":
		hc.call(fmt.Sprintf("u-%d", i), id, "nope", `{}`)
		hc.call(fmt.Sprintf("b-%d", i), id, "look", `{"at":"moon"}`)
		for k := range 30 { // one id reused back to back
			if !hc.call(fmt.Sprintf("r-%d", i), id, "look", fmt.Sprintf(`{"at":"body","n":%d}`, k)) {
				break
			}
		}
		hc.render(id, "Tools done.")
		hc.end(id)
	case "drop":
		hc.send(push.Speech{TurnID: id, Segments: []push.Segment{{Speech: "Let me start."}}})
		switch (i / len(chaosScenarios)) % 4 {
		case 0:
			hc.c.Close(websocket.StatusInternalError, "boom")
		case 1:
			hc.c.Close(4000, "custom")
		case 2:
			hc.c.Close(4409, "replaced")
		default:
			hc.c.CloseNow() // no close frame at all
		}
	case "unauthorized":
		hc.c.Close(4401, "key revoked")
	case "barge":
		// The user barges in; the cut turn's reply and end come later.
		time.Sleep(50 * time.Millisecond)
		hc.render(id, "You cut me off.")
		hc.end(id)
	case "stop", "reset":
		// Nothing until the stop frame (answered in the read loop).
	default:
		hc.render(id, "Unknown scenario.")
		hc.end(id)
	}
}

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
