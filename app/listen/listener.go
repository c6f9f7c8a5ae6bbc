package listen

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"yui/app/audio"
)

// Capture format and pacing.
const (
	// Rate is the capture rate: 16 kHz mono, what transcription wants.
	Rate = 16000
	// Chunk is the capture buffer: one wake-up per chunk is the cost of
	// listening at rest, and a barge-in is decided within one chunk.
	Chunk = 100 * time.Millisecond
	// Guard is the window at the start of each of her sentences in which
	// speech onsets are taken for her own voice (the sound reaching the
	// microphone, an echo canceller still converging).
	Guard = 300 * time.Millisecond
	// Duck raises the start threshold while she speaks (dB), so her voice
	// through the speakers must be louder to count as the user's.
	Duck = 6.0
	// RetryOpen is how long after a failed open the microphone is tried
	// again while listening stays on.
	RetryOpen = 5 * time.Second
	// OnceWait is how long ListenOnce waits for speech to start.
	OnceWait = 8 * time.Second
)

// Pill modes.
const (
	ModeOff       = "off"
	ModeListening = "listening"
	ModeHearing   = "hearing"
	ModeSending   = "sending"
	ModeError     = "error"
)

// State is what the pill's voice segment shows.
type State struct {
	Mode  string `json:"mode"`
	Error string `json:"error,omitempty"` // ModeError: the short text
	Fix   string `json:"fix,omitempty"`   // ModeError: FixEndpoint, FixKey, FixDevice
	Open  bool   `json:"open"`            // the microphone is open now
}

// Level is one chunk's loudness for the settings meter, in dBFS.
type Level struct {
	DB, Floor, Threshold float64
}

// Config is what the settings choose.
type Config struct {
	// On is always-on listening; off, the microphone opens only while
	// push-to-talk is held.
	On bool
	// Source is the capture device ("" = an echo-cancelled source when
	// the server has one, else the default).
	Source string
	// Sensitivity is 1–100 (0 = 50).
	Sensitivity int
	// BargeIn lets speech interrupt her while she talks. Off, speech
	// that starts while she talks is not taken (half-duplex).
	BargeIn bool
}

// Options are a Listener's dependencies.
type Options struct {
	// Input records; nil means no microphone (the pill says so).
	Input audio.Input
	// Transcriber turns utterances into text; nil is ErrNoEndpoint.
	Transcriber Transcriber
	// Send sends a transcript as a spoken turn (the target character's
	// Session.SendSpoken). Called from the listener's goroutines.
	Send func(text string)
	// BargeIn stops the characters speaking now (Session.BargeIn).
	BargeIn func()
	// Speaking reports whether a character is heard at now, and since when
	// its current sentence has been heard. Nil: never.
	Speaking func(now time.Time) (bool, time.Time)
	// OnState gets every pill state change; OnLevel each chunk's level
	// while the meter is on. Called from the listener's goroutines, one
	// at a time per callback.
	OnState func(State)
	OnLevel func(Level)
	// Detector overrides the detector's timings (tests); Sensitivity comes
	// from Config.
	Detector DetectorConfig
	Logger   *slog.Logger
}

// Listener runs the microphone, the detector and transcription. It is
// safe for concurrent use.
type Listener struct {
	opts Options
	log  *slog.Logger

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup
	ctl    chan struct{} // a config, hold or meter change

	mu        sync.Mutex
	cfg       Config
	tr        Transcriber
	hold      bool
	once      bool      // ListenOnce: one utterance, then close
	onceAt    time.Time // when it was asked
	meter     bool
	runCancel context.CancelFunc // the capture loop, while it runs
	runDone   chan struct{}
	state     State
	micOpen   bool // the device is open now
	sending   int
	closed    bool
}

// New returns a listener with cfg applied (the microphone opens when
// cfg.On).
func New(o Options, cfg Config) *Listener {
	lg := o.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := &Listener{opts: o, log: lg, ctx: ctx, cancel: cancel, ctl: make(chan struct{}, 1), tr: o.Transcriber}
	l.state = State{Mode: ModeOff}
	l.SetConfig(cfg)
	return l
}

// SetConfig applies settings: turning listening on opens the microphone,
// off closes it (unless push-to-talk is held); a device change reopens it.
func (l *Listener) SetConfig(cfg Config) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	reopen := cfg.Source != l.cfg.Source
	l.cfg = cfg
	if reopen && l.runCancel != nil {
		l.stopLocked()
	}
	if l.state.Mode == ModeError && l.state.Fix == FixDevice {
		l.state = State{Mode: ModeOff}
	}
	l.ensureLocked()
	l.notify()
}

// SetTranscriber replaces the transcriber (new endpoint settings); a
// transcription error shown in the pill clears.
func (l *Listener) SetTranscriber(t Transcriber) {
	l.mu.Lock()
	l.tr = t
	if l.state.Mode == ModeError && l.state.Fix != FixDevice {
		l.setStateLocked(l.restMode())
	}
	l.mu.Unlock()
}

// Hold presses (true) or releases (false) push-to-talk: while held one
// utterance is recorded whatever the detector says; releasing sends it.
// With listening off, the microphone is open only while held.
func (l *Listener) Hold(on bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.hold == on {
		return
	}
	l.hold = on
	l.log.Info("listen_push_to_talk", "held", on)
	if on {
		l.ensureLocked()
	}
	// A release is handled by the capture loop, which closes the
	// utterance and then the microphone when listening is off.
	l.notify()
}

// ListenOnce records the next utterance (the tray's "Listen"): the
// microphone opens if listening is off, the detector ends the utterance,
// and the microphone closes again; with no speech within OnceWait it
// closes without sending anything.
func (l *Listener) ListenOnce() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.once, l.onceAt = true, time.Now()
	l.log.Info("listen_once")
	l.ensureLocked()
	l.notify()
}

// endOnceLocked ends a ListenOnce; the microphone closes unless listening
// is on or push-to-talk is held.
func (l *Listener) endOnceLocked() {
	if !l.once {
		return
	}
	l.once = false
	if !l.cfg.On && !l.hold {
		l.stopLocked()
		if l.state.Mode == ModeListening {
			l.setStateLocked(ModeOff)
		}
	}
}

// Meter turns the level meter (OnLevel) on or off; it does not open the
// microphone by itself.
func (l *Listener) Meter(on bool) {
	l.mu.Lock()
	l.meter = on
	l.mu.Unlock()
}

// State returns the pill's voice segment now.
func (l *Listener) State() State {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state
}

// Close closes the microphone and cancels transcriptions in flight.
func (l *Listener) Close() {
	l.mu.Lock()
	l.closed = true
	l.stopLocked()
	l.mu.Unlock()
	l.cancel()
	l.wg.Wait()
}

func (l *Listener) notify() {
	select {
	case l.ctl <- struct{}{}:
	default:
	}
}

// restMode is the mode with nothing happening.
func (l *Listener) restMode() string {
	if l.cfg.On {
		return ModeListening
	}
	return ModeOff
}

func (l *Listener) setStateLocked(mode string) {
	l.setFullLocked(State{Mode: mode})
}

func (l *Listener) setFullLocked(s State) {
	s.Open = l.micOpen
	if s == l.state {
		return
	}
	l.state = s
	if l.opts.OnState != nil {
		l.opts.OnState(s)
	}
}

// ensureLocked starts or stops the capture loop as the settings and the
// key need.
func (l *Listener) ensureLocked() {
	need := l.cfg.On || l.hold || l.once
	switch {
	case need && l.runCancel == nil:
		ctx, cancel := context.WithCancel(l.ctx)
		l.runCancel = cancel
		done := make(chan struct{})
		l.runDone = done
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			defer close(done)
			l.run(ctx)
		}()
		if l.state.Mode == ModeOff {
			l.setStateLocked(ModeListening)
		} else {
			l.setFullLocked(l.state)
		}
	case !need && l.runCancel != nil:
		l.stopLocked()
	}
	if !need && l.state.Mode == ModeListening {
		l.setStateLocked(ModeOff)
	}
}

func (l *Listener) stopLocked() {
	if l.runCancel == nil {
		return
	}
	l.runCancel()
	l.runCancel = nil
	l.log.Info("listen_mic_closed")
	if l.state.Mode == ModeHearing {
		l.setStateLocked(l.restMode())
	} else {
		l.setFullLocked(l.state)
	}
}
