package voice

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"yui/app/audio"
	"yui/app/playback"
	"yui/app/tts"
)

// Mouth is lip-sync data for the page: Levels[i] (0–100) is heard from
// At + i×Step. A Mouth without levels says the mouth closes at At (the
// sound stopped).
type Mouth struct {
	At     time.Time
	Step   time.Duration
	Levels []uint8
	// Tones[i] (0–100) is how bright window i sounds (audio.Tones), one
	// per level.
	Tones []uint8
	// First marks a sentence's first sound (the listener's barge-in
	// guard window starts there).
	First bool
}

// Options configure a Speaker.
type Options struct {
	// Name is the character's name: the stream's name in the system's
	// volume control.
	Name string
	// Output plays the sound; nil means there is none (silent timing).
	Output audio.Output
	// Global is the mute every character shares; nil is none.
	Global *Mute
	// Engine builds the engine for a config; nil is the engine the config
	// names (tests pass fakes).
	Engine func(Config) tts.Engine
	// OnMouth receives mouth levels; nil drops them.
	OnMouth func(Mouth)
	// OnError receives the short text of a sentence's voice failure when
	// that sentence's turn to play comes; nil drops it.
	OnError func(short string)
	// Logger gets voice_synthesize_failed, voice_no_output and
	// voice_output_failed lines; nil discards.
	Logger *slog.Logger
	// Pace is the silent timing in characters per second; 0 is 15.
	Pace float64
	// Chunk is how much is written (and how many mouth levels are sent)
	// at a time; 0 is 100 ms.
	Chunk time.Duration
}

// Speaker is one character's voice. Create it with New; Close it when the
// character goes.
type Speaker struct {
	opts   Options
	log    *slog.Logger
	silent playback.Silent
	unsub  func()

	mu       sync.Mutex
	cfg      Config
	engine   tts.Engine
	playing  map[*clip]context.CancelFunc // audio of the clips playing; cancelled by a mute
	tails    map[*clip]context.CancelFunc // sound of clips that returned; cancelled by a mute or Hush
	noOutput bool                         // voice_no_output was logged and not yet healed
	closed   bool
	tailWG   sync.WaitGroup
}

var (
	_ playback.Voice  = (*Speaker)(nil)
	_ playback.Husher = (*Speaker)(nil)
)

// MaxLead bounds how long before its sound ends a clip returns (see
// clip.Play): a stream's start latency beyond it is not bridged.
const MaxLead = 400 * time.Millisecond

// New returns a speaker with config c.
func New(o Options, c Config) *Speaker {
	if o.Pace <= 0 {
		o.Pace = 15
	}
	if o.Chunk <= 0 {
		o.Chunk = 100 * time.Millisecond
	}
	if o.Engine == nil {
		o.Engine = Config.engine
	}
	lg := o.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	s := &Speaker{opts: o, log: lg, silent: playback.Silent{CharsPerSecond: o.Pace}, cfg: c,
		playing: map[*clip]context.CancelFunc{}, tails: map[*clip]context.CancelFunc{}}
	s.engine = s.engineFor(c)
	s.unsub = o.Global.watch(func(on bool) {
		if on {
			s.silence()
		}
	})
	return s
}

// engineFor builds c's engine; Off has none.
func (s *Speaker) engineFor(c Config) tts.Engine {
	if c.engineName() == EngineOff {
		return nil
	}
	return s.opts.Engine(c)
}

// Configure applies a new config: the engine from the next synthesis, the
// volume from the next chunk, a mute at once.
func (s *Speaker) Configure(c Config) {
	s.mu.Lock()
	if !sameEngine(s.cfg, c) {
		s.engine = s.engineFor(c)
	}
	s.cfg = c
	s.mu.Unlock()
	if c.Muted {
		s.silence()
	}
}

// SetMuted sets the character's own mute.
func (s *Speaker) SetMuted(on bool) {
	s.mu.Lock()
	s.cfg.Muted = on
	s.mu.Unlock()
	if on {
		s.silence()
	}
}

// Muted reports whether the character is muted, by itself or by the
// global mute.
func (s *Speaker) Muted() bool {
	s.mu.Lock()
	own := s.cfg.Muted
	s.mu.Unlock()
	return own || s.opts.Global.On()
}

// Voiced reports whether sentences are heard now: an engine is on, there
// is a sound output, and nothing mutes the character. The page moves the
// mouth from the levels then, and flaps it otherwise.
func (s *Speaker) Voiced() bool {
	s.mu.Lock()
	on := s.engine != nil && s.opts.Output != nil && !s.noOutput
	s.mu.Unlock()
	return on && !s.Muted()
}

// Close stops the speaker's sound and its watch on the global mute, and
// waits until no sound of a returned clip is left.
func (s *Speaker) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.unsub()
	s.silence()
	s.tailWG.Wait()
}

// Hush implements playback.Husher: the sound of clips that returned
// (their last moment, see clip.Play) stops at once.
func (s *Speaker) Hush() { s.stopSounds(false) }

// silence stops the sound of every clip playing (they finish in silence)
// and of every clip that returned.
func (s *Speaker) silence() { s.stopSounds(true) }

// stopSounds cancels the tails' sound, and the playing clips' too when
// playing is set (outside the lock: a cancel may run its clip's cleanup).
func (s *Speaker) stopSounds(playing bool) {
	s.mu.Lock()
	var cancels []context.CancelFunc
	if playing {
		cancels = slices.Collect(maps.Values(s.playing))
	}
	cancels = slices.AppendSeq(cancels, maps.Values(s.tails))
	s.mu.Unlock()
	for _, c := range cancels {
		c()
	}
}

func (s *Speaker) current() (Config, tts.Engine) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg, s.engine
}

// Synthesize implements playback.Voice.
func (s *Speaker) Synthesize(ctx context.Context, line playback.Line) (playback.Clip, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	reading := s.silent.Duration(line.Text)
	text := tts.Speakable(line.Text)
	cfg, engine := s.current()
	if text == "" || engine == nil {
		return silentClip(reading), nil
	}
	if s.Muted() {
		return &lazyClip{s: s, line: line, reading: reading}, nil
	}
	if !s.outputUp(ctx) {
		return silentClip(reading), nil
	}
	return s.synthesize(ctx, cfg, engine, line, text, reading)
}

// synthesize runs the engine; a failure becomes a failedClip.
func (s *Speaker) synthesize(ctx context.Context, cfg Config, engine tts.Engine, line playback.Line, text string, reading time.Duration) (playback.Clip, error) {
	pcm, err := engine.Synthesize(ctx, tts.Request{Text: text, Tone: cfg.tone(line.Cue.EmotionText), Caption: line.Cue.Caption})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.log.Warn("voice_synthesize_failed", "engine", cfg.engineName(), "turn_id", line.TurnID, "err", err.Error())
		return &failedClip{s: s, err: err, reading: reading}, nil
	}
	if len(pcm.Samples) == 0 {
		return silentClip(reading), nil
	}
	return &clip{s: s, pcm: pcm, levels: audio.Levels(pcm), tones: audio.Tones(pcm)}, nil
}

// outputUp reports whether there is a sound output to play on, logging
// the first failure and the recovery.
func (s *Speaker) outputUp(ctx context.Context) bool {
	if s.opts.Output == nil {
		return false
	}
	_, err := s.opts.Output.Server(ctx)
	if ctx.Err() != nil {
		return false // the sentence was dropped; that says nothing of the output
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case err != nil && !s.noOutput:
		s.noOutput = true
		s.log.Warn("voice_no_output", "err", err.Error())
	case err == nil && s.noOutput:
		s.noOutput = false
		s.log.Info("voice_output_back")
	}
	return err == nil
}

// track registers a playing clip's audio cancel; it returns false when the
// speaker is closed.
func (s *Speaker) track(c *clip, cancel context.CancelFunc) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.playing[c] = cancel
	return true
}

func (s *Speaker) untrack(c *clip) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.playing, c)
}

func (s *Speaker) mouth(m Mouth) {
	if s.opts.OnMouth != nil {
		s.opts.OnMouth(m)
	}
}

// wait sleeps d unless ctx ends first.
func wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
