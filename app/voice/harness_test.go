package voice_test

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/audio"
	"yui/app/cue"
	"yui/app/playback"
	"yui/app/tts"
	"yui/app/voice"
)

const rate = 16000

// toneEngine is a fake synthesiser: sentence k (the index of its text in
// texts) is a sine at freq(k) lasting dur, delivered as a WAV file with
// streaming placeholder sizes and decoded like a real engine's output.
type toneEngine struct {
	texts []string
	dur   time.Duration
	delay map[string]time.Duration // how long a text takes to synthesise
	fail  map[string]error

	mu       sync.Mutex
	inFlight int
	maxIn    int // the most syntheses that ran at once
	calls    []tts.Request
	times    []time.Time // when each synthesis finished
}

func freq(k int) float64 { return 400 + 300*float64(k) }

func (e *toneEngine) index(text string) int {
	for i, t := range e.texts {
		if t == text {
			return i
		}
	}
	return -1
}

func (e *toneEngine) Synthesize(ctx context.Context, r tts.Request) (audio.PCM, error) {
	e.mu.Lock()
	e.calls = append(e.calls, r)
	e.mu.Unlock()
	e.mu.Lock()
	e.inFlight++
	e.maxIn = max(e.maxIn, e.inFlight)
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.inFlight--
		e.mu.Unlock()
	}()
	if d := e.delay[r.Text]; d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return audio.PCM{}, ctx.Err()
		}
	}
	e.mu.Lock()
	e.times = append(e.times, time.Now())
	e.mu.Unlock()
	if err := e.fail[r.Text]; err != nil {
		return audio.PCM{}, err
	}
	k := e.index(r.Text)
	if k < 0 {
		return audio.PCM{}, errors.New("unknown text " + r.Text)
	}
	n := int(e.dur.Seconds() * rate)
	s := make([]int16, n)
	for i := range s {
		s[i] = int16(0.5 * 32767 * math.Sin(2*math.Pi*freq(k)*float64(i)/rate))
	}
	wav := audio.EncodeWAVStreaming(audio.PCM{Format: audio.Format{Rate: rate, Channels: 1}, Samples: s}, 0xFFFFFFFF, 0xFFFFFFFF)
	return audio.ParseWAV(wav)
}

func (e *toneEngine) requests() []tts.Request {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]tts.Request(nil), e.calls...)
}

// heardSpan is one sentence as the speaker heard it.
type heardSpan struct {
	k          int // sentence index by frequency, -1 unknown
	start, end time.Duration
	rms        float64
}

// spans groups the memory speaker's chunks into sentences (by stream),
// identifying each by its frequency.
func spans(m *audio.Memory, t0 time.Time) []heardSpan {
	var out []heardSpan
	stream := -1
	var samples []int16
	flush := func() {
		if len(samples) == 0 {
			return
		}
		out[len(out)-1].k = identify(samples)
		out[len(out)-1].rms = audio.RMS(samples)
		samples = nil
	}
	for _, c := range m.Heard() {
		if c.Stream != stream {
			flush()
			stream = c.Stream
			out = append(out, heardSpan{start: c.At.Sub(t0)})
		}
		out[len(out)-1].end = c.End().Sub(t0)
		samples = append(samples, c.Samples...)
	}
	flush()
	return out
}

// identify returns the sentence whose frequency matches the zero-crossing
// rate of s.
func identify(s []int16) int {
	crossings := 0
	for i := 1; i < len(s); i++ {
		if (s[i-1] < 0) != (s[i] < 0) {
			crossings++
		}
	}
	f := float64(crossings) / 2 / (float64(len(s)) / rate)
	best, bestD := -1, math.Inf(1)
	for k := range 8 {
		if d := math.Abs(f - freq(k)); d < bestD && d < 100 {
			best, bestD = k, d
		}
	}
	return best
}

// rig is a player with a speaker on a memory output.
type rig struct {
	t      *testing.T
	t0     time.Time
	mem    *audio.Memory
	engine *toneEngine
	global *voice.Mute
	sp     *voice.Speaker
	player *playback.Player

	idleCh chan struct{}

	mu     sync.Mutex
	events []event
	mouths []voice.Mouth
	errs   []string
}

type event struct {
	at time.Duration
	ev playback.Event
}

func newRig(t *testing.T, e *toneEngine, cfg voice.Config) *rig {
	return newRigOn(t, e, cfg, &audio.Memory{Buffer: 50 * time.Millisecond, Latency: 10 * time.Millisecond})
}

// newRigOn is newRig on the memory output mem.
func newRigOn(t *testing.T, e *toneEngine, cfg voice.Config, mem *audio.Memory) *rig {
	r := &rig{t: t, t0: time.Now(), mem: mem,
		engine: e, global: &voice.Mute{}, idleCh: make(chan struct{}, 16)}
	if cfg.Volume == 0 {
		cfg.Volume = 1
	}
	r.sp = voice.New(voice.Options{
		Name:   "Yui",
		Output: r.mem,
		Global: r.global,
		Engine: func(voice.Config) tts.Engine { return e },
		OnMouth: func(m voice.Mouth) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.mouths = append(r.mouths, m)
		},
		OnError: func(s string) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.errs = append(r.errs, s)
		},
	}, cfg)
	r.player = playback.New(playback.Options{Voice: r.sp, Logger: slog.New(slog.DiscardHandler), OnEvent: func(ev playback.Event) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.events = append(r.events, event{time.Since(r.t0), ev})
		if ev.Kind == playback.Idle {
			r.idleCh <- struct{}{}
		}
	}})
	t.Cleanup(func() {
		r.player.Close()
		r.sp.Close()
	})
	return r
}

// say renders the sentences as one reply of turn "t1".
func (r *rig) say(texts ...string) {
	segs := make([]playback.Segment, len(texts))
	for i, s := range texts {
		segs[i] = playback.Segment{Speech: s}
	}
	r.player.Render("t1", segs)
}

// idle waits (in fake time) for the player's next idle event, then for
// the last sentence's tail: its clip returns up to voice.MaxLead before
// its sound ends.
func (r *rig) idle() {
	<-r.idleCh
	time.Sleep(voice.MaxLead)
	synctest.Wait()
}

// at returns when the event of kind for sentence text came.
func (r *rig) at(kind playback.Kind, text string) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.events {
		if e.ev.Kind == kind && e.ev.Text == text {
			return e.at
		}
	}
	r.t.Fatalf("no %s event for %q", kind, text)
	return 0
}

func (r *rig) event(kind playback.Kind, text string) playback.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.events {
		if e.ev.Kind == kind && e.ev.Text == text {
			return e.ev
		}
	}
	r.t.Fatalf("no %s event for %q", kind, text)
	return playback.Event{}
}

func order(sp []heardSpan) []int {
	out := make([]int, len(sp))
	for i, s := range sp {
		out[i] = s.k
	}
	return out
}

var _ = cue.Cue{}
