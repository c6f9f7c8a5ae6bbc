package shell

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func timingLines(t *testing.T, buf *bytes.Buffer) map[string]int64 {
	t.Helper()
	out := make(map[string]int64)
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if l == "" {
			continue
		}
		var m struct {
			Msg  string `json:"msg"`
			Step string `json:"step"`
			Ms   int64  `json:"ms"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		if m.Msg != timingEventName {
			t.Fatalf("log line %q: not a %s line", l, timingEventName)
		}
		if _, dup := out[m.Step]; dup {
			t.Fatalf("step %s logged twice", m.Step)
		}
		out[m.Step] = m.Ms
	}
	return out
}

func TestStartTimerLogsEachStepOnceSinceStart(t *testing.T) {
	var buf bytes.Buffer
	start := time.UnixMilli(time.Now().UnixMilli() - 2000) // whole milliseconds, as a page stamps
	tm := newStartTimer(slog.New(slog.NewJSONHandler(&buf, nil)), start)
	tm.step(StepCoreDialed, start.Add(120*time.Millisecond))
	tm.step(StepCoreDialed, start.Add(900*time.Millisecond)) // again: ignored
	tm.step(StepMapped, start.Add(640*time.Millisecond))
	tm.page(StepFirstState, float64(start.Add(1500*time.Millisecond).UnixMilli()))
	tm.page("window_mapped_by_page", float64(start.UnixMilli())) // not a page step
	tm.page(StepViewSocket, 1)                                   // 1970: not believed, stamped now
	got := timingLines(t, &buf)
	want := map[string]int64{StepCoreDialed: 120, StepMapped: 640, StepFirstState: 1500}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %d ms, want %d (all: %v)", k, got[k], v, got)
		}
	}
	if vs, ok := got[StepViewSocket]; !ok || vs < 1900 || vs > 60_000 {
		t.Errorf("view_socket with an implausible stamp: %d ms (logged %v), want about now (≈ 2000)", vs, ok)
	}
	if len(got) != 4 {
		t.Errorf("steps logged: %v, want 4", got)
	}
}

func TestBridgeStartupStepReachesTheTimer(t *testing.T) {
	var buf bytes.Buffer
	tm := newStartTimer(slog.New(slog.NewJSONHandler(&buf, nil)), time.Now())
	b := newBridge("ws://127.0.0.1:1/view", "tok", "pet", "p1", opener{})
	b.StartupStep(StepViewSocket, float64(time.Now().UnixMilli())) // no timer yet: dropped
	b.setStepFunc(tm.page)
	b.StartupStep(StepFirstState, float64(time.Now().UnixMilli()))
	got := timingLines(t, &buf)
	if _, ok := got[StepFirstState]; !ok || len(got) != 1 {
		t.Errorf("steps logged: %v, want first_state only", got)
	}
}
