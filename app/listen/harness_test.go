package listen

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/audio"
	"yui/app/cue"
	"yui/app/jpegfit"
	"yui/app/session"
	"yui/app/settings"
	"yui/app/tts"
	"yui/app/voice"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// ---- a scripted microphone: the room plus sounds at set times ----

// mic is an audio.Input whose capture hears track (16 kHz mono) from
// the moment it opens, in real time (synctest's clock): chunk i is
// delivered when its last sample has been heard.
type mic struct {
	mu     sync.Mutex
	track  []float64
	opens  int
	closes int
	open   bool
	fail   error
}

func (m *mic) Sources(context.Context) ([]audio.Source, error) {
	return []audio.Source{{Name: "test-mic", Description: "Test mic", Default: true}}, nil
}

func (m *mic) Capture(ctx context.Context, o audio.CaptureOptions) (audio.Capture, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return nil, m.fail
	}
	m.opens++
	m.open = true
	return &micCapture{m: m, start: time.Now(), chunk: n(o.Chunk), done: make(chan struct{})}, nil
}

func (m *mic) isOpen() bool { m.mu.Lock(); defer m.mu.Unlock(); return m.open }

type micCapture struct {
	m     *mic
	start time.Time
	chunk int
	i     int
	once  sync.Once
	done  chan struct{}
}

func (c *micCapture) Read(ctx context.Context) ([]int16, time.Time, error) {
	at := c.start.Add(at(c.i * c.chunk))
	t := time.NewTimer(time.Until(at.Add(Chunk)))
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return nil, time.Time{}, ctx.Err()
	case <-c.done:
		return nil, time.Time{}, audio.ErrClosed
	}
	c.m.mu.Lock()
	from := c.i * c.chunk
	var s []float64
	if from < len(c.m.track) {
		s = c.m.track[from:min(from+c.chunk, len(c.m.track))]
	}
	c.m.mu.Unlock()
	out := pcm16(s)
	for len(out) < c.chunk {
		out = append(out, 0)
	}
	c.i++
	return out, at, nil
}

func (c *micCapture) Close() error {
	c.once.Do(func() {
		close(c.done)
		c.m.mu.Lock()
		c.m.closes++
		c.m.open = false
		c.m.mu.Unlock()
	})
	return nil
}

// ---- a transcriber that recognises a small vocabulary by pitch ----

// words maps the test voices' pitch to what they "say".
var words = map[float64]string{140: "what time is it", 220: "tell me a joke"}

// pitchTranscriber recognises the generated voices: it finds the pitch
// of the utterance's loud part by autocorrelation and answers the phrase
// of the nearest known pitch within 5 %, else "[BLANK_AUDIO]" (what a
// recogniser writes for audio without words). It looks at the audio it is
// given: a wrong cut, a silent clip or another voice gives another
// answer.
type pitchTranscriber struct {
	mu    sync.Mutex
	calls []audio.PCM
	delay time.Duration
	err   error
}

func (p *pitchTranscriber) Transcribe(ctx context.Context, pcm audio.PCM) (string, error) {
	p.mu.Lock()
	p.calls = append(p.calls, pcm)
	d, err := p.delay, p.err
	p.mu.Unlock()
	if d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	if err != nil {
		return "", err
	}
	f := pitch(pcm.Samples, pcm.Rate)
	for k, w := range words {
		if math.Abs(f-k) < 0.05*k {
			return w, nil
		}
	}
	return "[BLANK_AUDIO]", nil
}

func (p *pitchTranscriber) clips() []audio.PCM {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.calls)
}

// pitch estimates the fundamental (60–400 Hz) of the loudest 200 ms.
func pitch(s []int16, rate int) float64 {
	w := rate / 5
	if len(s) < w {
		return 0
	}
	best, bestE := 0, 0.0
	for i := 0; i+w <= len(s); i += w / 4 {
		var e float64
		for _, v := range s[i : i+w] {
			e += float64(v) * float64(v)
		}
		if e > bestE {
			best, bestE = i, e
		}
	}
	x := s[best : best+w]
	if bestE/float64(w) < 100*100 {
		return 0
	}
	bl, bv := 0, math.Inf(-1)
	for lag := rate / 400; lag <= rate/60; lag++ {
		var c float64
		for i := 0; i+lag < len(x); i++ {
			c += float64(x[i]) * float64(x[i+lag])
		}
		if c > bv {
			bl, bv = lag, c
		}
	}
	return float64(rate) / float64(bl)
}

// ---- her voice: every sentence is a 3 s tone at 500 Hz ----

type toneEngine struct{ dur time.Duration }

func (e toneEngine) Synthesize(ctx context.Context, r tts.Request) (audio.PCM, error) {
	p := audio.PCM{Format: audio.Format{Rate: Rate, Channels: 1}, Samples: make([]int16, n(e.dur))}
	for i := range p.Samples {
		p.Samples[i] = int16(8000 * math.Sin(2*math.Pi*500*float64(i)/Rate))
	}
	return p, nil
}

// ---- the real session on a push backend ----

const chat = "yui-listen"

type env struct {
	t       *testing.T
	srv     *pushserver.Server
	s       *session.Session
	speaker *voice.Speaker
	out     *audio.Memory
	heard   *Heard
	mic     *mic
	tr      *pitchTranscriber
	l       *Listener
	logs    *logs

	mu     sync.Mutex
	turns  []push.Turn
	turnAt []time.Time
	stops  [][]string
	stopAt []time.Time
	states []State
}

type logs struct {
	mu   sync.Mutex
	msgs []string
}

func (l *logs) Enabled(context.Context, slog.Level) bool { return true }
func (l *logs) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logs) WithGroup(string) slog.Handler            { return l }
func (l *logs) Handle(_ context.Context, r slog.Record) error {
	s := r.Message
	r.Attrs(func(a slog.Attr) bool { s += fmt.Sprintf(" %s=%v", a.Key, a.Value); return true })
	l.mu.Lock()
	l.msgs = append(l.msgs, s)
	l.mu.Unlock()
	return nil
}
func (l *logs) all() []string { l.mu.Lock(); defer l.mu.Unlock(); return slices.Clone(l.msgs) }

func newEnv(t *testing.T, track []float64, cfg Config) *env {
	t.Helper()
	e := &env{t: t, out: &audio.Memory{}, heard: &Heard{}, mic: &mic{track: track}, tr: &pitchTranscriber{}, logs: &logs{}}
	e.srv = pushserver.New(pushserver.Config{Key: "k", Hooks: pushserver.Hooks{
		Turn: func(_ string, tu push.Turn) {
			e.mu.Lock()
			e.turns, e.turnAt = append(e.turns, tu), append(e.turnAt, time.Now())
			e.mu.Unlock()
		},
		Stop: func(_ string, ids []string) {
			e.mu.Lock()
			e.stops, e.stopAt = append(e.stops, ids), append(e.stopAt, time.Now())
			e.mu.Unlock()
		},
	}})
	p := settings.Preset{ID: "p-test", Name: "Yui", ChatAPI: "push", ChatBaseURL: "http://backend.test:8646", Key: "k", ChatID: chat}
	tr, err := push.NewTransport(push.Config{
		Endpoint: func() string { return p.ChatBaseURL }, Key: func() string { return p.Key }, ChatID: chat,
		Vocabulary: session.WireVocabulary(cue.Default()), ImageFitter: jpegfit.URLFitter{},
		HTTPClient: pushserver.InMemoryClient(e.srv),
	})
	if err != nil {
		t.Fatal(err)
	}
	e.speaker = voice.New(voice.Options{Name: "Yui", Output: e.out,
		Engine: func(voice.Config) tts.Engine { return toneEngine{dur: 3 * time.Second} },
		OnMouth: func(m voice.Mouth) {
			e.heard.Sound(m.At, time.Duration(len(m.Levels))*m.Step, m.First)
		}}, voice.Config{Volume: 1})
	e.s, err = session.New(session.Options{Preset: p, ConfigDir: t.TempDir(), Voice: e.speaker, Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	e.s.Start()
	synctest.Wait()
	e.l = New(Options{Input: e.mic, Transcriber: e.tr, Send: func(text string) { e.s.SendSpoken(text) },
		BargeIn: e.s.BargeIn, Speaking: e.heard.Speaking, Logger: slog.New(e.logs),
		OnState: func(s State) { e.mu.Lock(); e.states = append(e.states, s); e.mu.Unlock() }}, cfg)
	t.Cleanup(func() {
		e.l.Close()
		e.s.Close()
		e.speaker.Close()
		e.srv.Close()
	})
	return e
}

func (e *env) Turns() ([]push.Turn, []time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.turns), slices.Clone(e.turnAt)
}

func (e *env) Stops() ([][]string, []time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.stops), slices.Clone(e.stopAt)
}

func (e *env) modes() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, s := range e.states {
		if len(out) == 0 || out[len(out)-1] != s.Mode {
			out = append(out, s.Mode)
		}
	}
	return out
}

// lastHeard is when her voice was last heard.
func (e *env) lastHeard() time.Time {
	var end time.Time
	for _, c := range e.out.Heard() {
		if c.End().After(end) {
			end = c.End()
		}
	}
	return end
}
