package playback

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/cue"
)

// recorder collects events with the (fake) time they arrived.
type recorder struct {
	mu     sync.Mutex
	start  time.Time
	events []Event
	at     []time.Duration
}

func newRecorder() *recorder { return &recorder{start: time.Now()} }

func (r *recorder) on(ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	r.at = append(r.at, time.Since(r.start))
}

// lines renders events compactly: "start T1 Hello.", "cue T1 happy", ...
func (r *recorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.events))
	for i, ev := range r.events {
		out[i] = describe(ev)
	}
	return out
}

func (r *recorder) times() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.at...)
}

func (r *recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events, r.at = nil, nil
}

func describe(ev Event) string {
	switch ev.Kind {
	case SpeechStart:
		s := "start " + ev.TurnID + " " + ev.Text
		if ev.Muted {
			s += " (muted)"
		}
		return s
	case SpeechEnd:
		s := "end " + ev.TurnID + " " + ev.Text
		if ev.Err != nil {
			s += " (err)"
		}
		return s
	case CueFired:
		return "cue " + ev.TurnID + " " + cueString(ev.Cue)
	case UtteranceEnd:
		return "utt " + ev.TurnID + " " + ev.Text
	case Idle:
		return "idle"
	}
	return "?" + string(ev.Kind)
}

func cueString(c cue.Cue) string {
	var parts []string
	for _, kv := range [][2]string{{"e", c.EmotionID}, {"m", c.MotionID}, {"t", c.EmotionText}, {"c", c.Caption}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+"="+kv[1])
		}
	}
	return strings.Join(parts, ",")
}

func expect(t *testing.T, r *recorder, want ...string) {
	t.Helper()
	got := r.lines()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n  got  %q\n  want %q", got, want)
	}
}

func seg(speech string, cues ...cue.Cue) Segment { return Segment{Cues: cues, Speech: speech} }

func emo(id string) cue.Cue { return cue.Cue{EmotionID: id} }

// newSilent starts a player with the silent voice at cps characters per
// second, recording events.
func newSilent(t *testing.T, cps float64) (*Player, *recorder) {
	t.Helper()
	r := newRecorder()
	p := New(Options{Voice: Silent{CharsPerSecond: cps}, OnEvent: r.on})
	t.Cleanup(p.Close)
	return p, r
}

// fakeVoice is a scripted voice: synthesis of a line waits for release
// (when gated) and playing takes the clip's duration.
type fakeVoice struct {
	mu        sync.Mutex
	gated     bool
	gates     map[string]chan struct{}
	synthErr  map[string]error
	playErr   map[string]error
	dur       time.Duration
	synths    []string // lines in Synthesize call order
	finished  []string // lines whose synthesis returned
	played    []string
	cancelled []string // lines whose synthesis saw ctx cancelled
	inflight  int
	maxFlight int
	lines     []Line
}

func newFakeVoice() *fakeVoice {
	return &fakeVoice{gates: map[string]chan struct{}{}, synthErr: map[string]error{}, playErr: map[string]error{}}
}

func (v *fakeVoice) gate(text string) chan struct{} {
	v.mu.Lock()
	defer v.mu.Unlock()
	g, ok := v.gates[text]
	if !ok {
		g = make(chan struct{})
		v.gates[text] = g
	}
	return g
}

func (v *fakeVoice) release(text string) { close(v.gate(text)) }

func (v *fakeVoice) Synthesize(ctx context.Context, l Line) (Clip, error) {
	v.mu.Lock()
	v.synths = append(v.synths, l.Text)
	v.lines = append(v.lines, l)
	v.inflight++
	v.maxFlight = max(v.maxFlight, v.inflight)
	gated := v.gated
	err := v.synthErr[l.Text]
	v.mu.Unlock()
	defer func() {
		v.mu.Lock()
		v.inflight--
		v.mu.Unlock()
	}()
	if gated {
		select {
		case <-v.gate(l.Text):
		case <-ctx.Done():
			v.mu.Lock()
			v.cancelled = append(v.cancelled, l.Text)
			v.mu.Unlock()
			return nil, ctx.Err()
		}
	}
	v.mu.Lock()
	v.finished = append(v.finished, l.Text)
	v.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return &fakeClip{v: v, text: l.Text}, nil
}

type fakeClip struct {
	v    *fakeVoice
	text string
}

func (c *fakeClip) Play(ctx context.Context) error {
	c.v.mu.Lock()
	c.v.played = append(c.v.played, c.text)
	d, err := c.v.dur, c.v.playErr[c.text]
	c.v.mu.Unlock()
	if err != nil {
		return err
	}
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (v *fakeVoice) snapshot() (synths, finished, played, cancelled []string, maxFlight int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]string(nil), v.synths...), append([]string(nil), v.finished...),
		append([]string(nil), v.played...), append([]string(nil), v.cancelled...), v.maxFlight
}

func newFake(t *testing.T, v *fakeVoice, ahead int) (*Player, *recorder) {
	t.Helper()
	r := newRecorder()
	p := New(Options{Voice: v, Ahead: ahead, OnEvent: r.on, Logger: discardLogger()})
	t.Cleanup(p.Close)
	return p, r
}

var errBoom = fmt.Errorf("boom")
