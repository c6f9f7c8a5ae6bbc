package transporttest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
)

// Carries says what a wire can carry where the spec's table allows it
// not to.
type Carries struct {
	// ToolRunning: a backend tool's running state (push, Responses,
	// threads); Chat Completions shows done only.
	ToolRunning bool
	// Lacks is what the wire cannot carry at all (the zero value: it
	// carries everything).
	Lacks Lacks
}

// Lacks names what a wire cannot carry: the Standard Agents threads wire
// runs an agent defined on the runtime, so it has no cue tool, declares
// no client tool and reports no usage, and it shows a failed run with the
// generic failure line (the reason goes to the log).
type Lacks struct {
	Cues        bool
	ClientTools bool
	Usage       bool
	ErrorText   bool
}

// Wire is a transport under test, connected to a backend playing the
// script.
type Wire struct {
	Transport transport.Transport
	Carries   Carries
	// Remembers reports whether the backend's last turn carried the
	// conversation before it (false right after a reset).
	Remembers func() bool
}

// Factory starts a backend playing the script and a transport to it that
// declares tools. The transport is not started; the factory cleans up.
type Factory func(t *testing.T, tools []transport.Tool) Wire

// Run is the conformance suite: the script's replies give the same events
// over every wire, except what Carries says a wire cannot carry.
func Run(t *testing.T, factory Factory) {
	w := factory(t, []transport.Tool{LookTool()})
	r := newRecorder()
	w.Transport.Start(r)
	t.Cleanup(func() { w.Transport.Close() })
	r.waitReady(t)

	send := func(id, text string) {
		t.Helper()
		err := w.Transport.SendTurn(context.Background(), transport.Turn{TurnID: id, Text: text,
			ClientContext: "<client_context>\ntrigger: user message\n</client_context>"})
		if err != nil {
			t.Fatalf("send %s: %v", text, err)
		}
	}

	t.Run("reply", func(t *testing.T) {
		send("101", TextHello)
		got := r.waitEnd(t, "101")
		want := map[string][]string{
			"speech":    {"cue e=happy", "say " + HelloFirst, "cue e=curious", "say " + HelloSecond, "cue m=dance"},
			"tools":     {"tool " + BackendTool + " running", "tool " + BackendTool + " done"},
			"calls":     nil,
			"reasoning": {"reasoning " + Reasoning},
			"end":       {"usage 15", "end"},
		}
		if !w.Carries.ToolRunning {
			want["tools"] = want["tools"][1:]
		}
		if w.Carries.Lacks.Cues {
			want["speech"] = slices.DeleteFunc(want["speech"], func(l string) bool { return strings.HasPrefix(l, "cue ") })
		}
		if w.Carries.Lacks.Usage {
			want["end"] = dropUsage(want["end"])
		}
		same(t, got, want)
	})

	t.Run("client tool", func(t *testing.T) {
		if w.Carries.Lacks.ClientTools {
			t.Skip("the wire declares no client tool")
		}
		send("102", TextLook)
		r.waitEnd(t, "102")
		// Push reports the result it wrote after the frames the backend
		// sent in reply may already be in: wait for it too.
		r.waitLine(t, "102", "result "+LookResult)
		got := r.waitEnd(t, "102")
		want := map[string][]string{
			"speech":    {"say " + TextSeen},
			"tools":     {"tool look running", "tool look done"},
			"calls":     {"call look " + LookArgs, "result " + LookResult},
			"reasoning": nil,
			"end":       {"end"},
		}
		if !w.Carries.ToolRunning {
			want["tools"] = want["tools"][1:]
		}
		got["end"] = dropUsage(got["end"])
		same(t, got, want)
		if !w.Remembers() {
			t.Error("the backend did not get the conversation before this turn")
		}
	})

	t.Run("error", func(t *testing.T) {
		send("103", TextFail)
		got := r.waitEnd(t, "103")
		got["end"] = dropUsage(got["end"])
		errLine := "error " + ErrorText
		if w.Carries.Lacks.ErrorText {
			errLine = "error"
		}
		same(t, got, map[string][]string{"speech": nil, "tools": nil, "calls": nil, "reasoning": nil,
			"end": {errLine, "end"}})
	})

	t.Run("stop mid-reply", func(t *testing.T) {
		send("104", TextSlow)
		r.waitLine(t, "104", "say "+SlowFirst)
		if err := w.Transport.Stop(context.Background(), []string{"104"}); err != nil {
			t.Fatalf("stop: %v", err)
		}
		got := r.waitEnd(t, "104")
		got["end"] = dropUsage(got["end"])
		same(t, got, map[string][]string{"speech": {"say " + SlowFirst}, "tools": nil, "calls": nil, "reasoning": nil, "end": {"end"}})
	})

	t.Run("reset", func(t *testing.T) {
		if err := w.Transport.Reset(context.Background()); err != nil {
			t.Fatalf("reset: %v", err)
		}
		send("105", TextAgain)
		got := r.waitEnd(t, "105")
		got["end"] = dropUsage(got["end"])
		same(t, got, map[string][]string{"speech": {"say " + AgainReply}, "tools": nil, "calls": nil, "reasoning": nil, "end": {"end"}})
		if w.Remembers() {
			t.Error("the backend still had the conversation after the reset")
		}
	})
}

func dropUsage(lines []string) []string {
	return slices.DeleteFunc(slices.Clone(lines), func(l string) bool { return strings.HasPrefix(l, "usage") })
}

func same(t *testing.T, got, want map[string][]string) {
	t.Helper()
	for k, w := range want {
		if strings.Join(got[k], "\n") != strings.Join(w, "\n") {
			t.Errorf("%s:\n got  %q\n want %q", k, got[k], w)
		}
	}
}

// recorder is the suite's handler: per turn, lines by category.
type recorder struct {
	mu     sync.Mutex
	cond   *sync.Cond
	ready  bool
	lines  map[string]map[string][]string
	reason map[string]*strings.Builder
	ended  map[string]bool
}

func newRecorder() *recorder {
	r := &recorder{lines: map[string]map[string][]string{}, reason: map[string]*strings.Builder{}, ended: map[string]bool{}}
	r.cond = sync.NewCond(&r.mu)
	return r
}

func (r *recorder) addLocked(turn, cat, line string) {
	if r.lines[turn] == nil {
		r.lines[turn] = map[string][]string{}
	}
	r.lines[turn][cat] = append(r.lines[turn][cat], line)
	r.cond.Broadcast()
}

func cueLine(c transport.Cue) string {
	var p []string
	if c.EmotionID != "" {
		p = append(p, "e="+c.EmotionID)
	}
	if c.MotionID != "" {
		p = append(p, "m="+c.MotionID)
	}
	return "cue " + strings.Join(p, ",")
}

func (r *recorder) segments(turn string, segs []transport.Segment) {
	for _, s := range segs {
		for _, c := range s.Cues {
			r.addLocked(turn, "speech", cueLine(c))
		}
		if strings.TrimSpace(s.Speech) != "" {
			r.addLocked(turn, "speech", "say "+strings.TrimSpace(s.Speech))
		}
	}
}

func (r *recorder) HandleEvent(e transport.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e := e.(type) {
	case transport.Speech:
		r.segments(e.TurnID, e.Segments)
	case transport.Render:
		r.segments(e.TurnID, e.Segments)
		if e.Reasoning != "" {
			r.reason[e.TurnID] = &strings.Builder{}
			r.reason[e.TurnID].WriteString(e.Reasoning)
		}
	case transport.Reasoning:
		if r.reason[e.TurnID] == nil {
			r.reason[e.TurnID] = &strings.Builder{}
		}
		r.reason[e.TurnID].WriteString(e.Delta)
	case transport.ToolStatus:
		r.addLocked(e.TurnID, "tools", "tool "+e.ToolID+" "+e.State)
	case transport.TurnError:
		line := "error"
		if strings.Contains(e.Message, ErrorText) {
			line += " " + ErrorText
		} else if e.Message != "" {
			line += " (other: " + e.Message + ")"
		}
		r.addLocked(e.TurnID, "end", line)
	case transport.TurnEnd:
		if e.Usage != nil {
			r.addLocked(e.TurnID, "end", fmt.Sprintf("usage %g", e.Usage.TotalTokens))
		}
		if b := r.reason[e.TurnID]; b != nil {
			r.addLocked(e.TurnID, "reasoning", "reasoning "+b.String())
		}
		r.addLocked(e.TurnID, "end", "end")
		r.ended[e.TurnID] = true
	}
}

func (r *recorder) HandleState(c transport.StateChange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ready = c.To == transport.StateReady
	r.cond.Broadcast()
}

func (r *recorder) HandleTurnWait(w transport.TurnWaitEnded) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addLocked(w.TurnID, "end", "wait ended")
}

func (r *recorder) HandleToolCall(c transport.ToolCall) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addLocked(c.TurnID, "calls", "call "+c.Name+" "+string(c.Arguments))
}

func (r *recorder) HandleToolResult(res transport.ToolResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addLocked(res.TurnID, "calls", "result "+res.Result)
}

// waitFor waits until cond holds; the guard only fails a hung suite.
func (r *recorder) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.AfterFunc(30*time.Second, func() {
		r.mu.Lock()
		r.cond.Broadcast()
		r.mu.Unlock()
	})
	defer deadline.Stop()
	start := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	for !cond() {
		if time.Since(start) > 30*time.Second {
			t.Fatalf("waited 30 s for %s; have %v", what, r.lines)
		}
		r.cond.Wait()
	}
}

func (r *recorder) waitReady(t *testing.T) {
	t.Helper()
	r.waitFor(t, "ready", func() bool { return r.ready })
}

func (r *recorder) waitEnd(t *testing.T, id string) map[string][]string {
	t.Helper()
	r.waitFor(t, "turn_end of "+id, func() bool { return r.ended[id] })
	out := map[string][]string{}
	for k, v := range r.lines[id] {
		out[k] = slices.Clone(v)
	}
	return out
}

func (r *recorder) waitLine(t *testing.T, id, line string) {
	t.Helper()
	r.waitFor(t, line, func() bool {
		for _, ls := range r.lines[id] {
			if slices.Contains(ls, line) {
				return true
			}
		}
		return false
	})
}
