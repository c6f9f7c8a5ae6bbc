package voice

import (
	"context"
	"errors"
	"time"
	"yui/app/audio"
	"yui/app/playback"
	"yui/app/tts"
)

// The clips a Speaker hands to playback: silent, failed, lazy, and a synthesized sound written to the output.

// silentClip plays for its duration in silence.
type silentClip time.Duration

func (c silentClip) Play(ctx context.Context) error { return wait(ctx, time.Duration(c)) }

// failedClip is a sentence whose synthesis failed: shown in silence for
// its reading time; the failure goes to the pill when it plays.
type failedClip struct {
	s       *Speaker
	err     error
	reading time.Duration
}

func (c *failedClip) Play(ctx context.Context) error {
	if c.s.opts.OnError != nil {
		c.s.opts.OnError(tts.ShortText(c.err))
	}
	if err := wait(ctx, c.reading); err != nil {
		return err
	}
	return c.err
}

// lazyClip was made while muted: it synthesises when it plays if the
// mute was lifted by then, and is silent otherwise.
type lazyClip struct {
	s       *Speaker
	line    playback.Line
	reading time.Duration
}

func (c *lazyClip) Play(ctx context.Context) error {
	s := c.s
	if s.Muted() || !s.outputUp(ctx) {
		return wait(ctx, c.reading)
	}
	cfg, engine := s.current()
	text := tts.Speakable(c.line.Text)
	if engine == nil || text == "" {
		return wait(ctx, c.reading)
	}
	clip, err := s.synthesize(ctx, cfg, engine, c.line, text, c.reading)
	if err != nil {
		return err
	}
	return clip.Play(ctx)
}

// clip is synthesised audio.
type clip struct {
	s      *Speaker
	pcm    audio.PCM
	levels []uint8
	tones  []uint8
}

// errMuted ends a clip's sound when a mute came.
var errMuted = errors.New("voice: muted")

// Play plays the clip on a stream of its own. It returns its stream's
// start latency (the lead: from opening the stream to its first sample
// heard, at most MaxLead) before the sound ends, so the next sentence,
// opened then, is heard as this one ends rather than a lead later; the
// last moment plays on as the clip's tail until it ends, or a mute, Hush
// or Close stops it. ctx stops the sound at once while Play runs.
func (c *clip) Play(ctx context.Context) error {
	s := c.s
	total := c.pcm.Duration()
	if s.Muted() {
		return wait(ctx, total)
	}
	cfg, _ := s.current()
	start := time.Now()
	// The sound outlives ctx by the tail: its context is its own, tied to
	// ctx only while Play runs.
	soundCtx, stopSound := context.WithCancelCause(context.WithoutCancel(ctx))
	unlink := context.AfterFunc(ctx, func() { stopSound(context.Cause(ctx)) })
	handedOver := false
	defer func() {
		unlink()
		if !handedOver {
			stopSound(nil)
		}
	}()
	if !s.track(c, func() { stopSound(errMuted) }) {
		return wait(ctx, total)
	}
	defer s.untrack(c)
	st, err := s.opts.Output.Open(soundCtx, audio.StreamOptions{Format: c.pcm.Format, Sink: cfg.Device, Name: s.opts.Name})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.log.Warn("voice_output_failed", "stage", "open", "err", err.Error())
		return wait(ctx, total)
	}
	played, first, end, err := c.write(soundCtx, st)
	if lead := min(first.Sub(start), MaxLead); err == nil && !first.IsZero() && lead > 0 {
		err = wait(soundCtx, time.Until(end.Add(-lead)))
		if err == nil && unlink() && s.handOver(c, st, stopSound, soundCtx) {
			handedOver = true
			return nil
		}
	}
	if err == nil {
		err = st.Drain(soundCtx)
	}
	if err == nil {
		st.Close()
		return nil
	}
	// The sound stopped early: what was queued is dropped now.
	st.Close()
	s.mouth(Mouth{At: time.Now()})
	switch {
	case ctx.Err() != nil:
		return ctx.Err() // stop or barge-in
	case context.Cause(soundCtx) == errMuted:
	default:
		s.log.Warn("voice_output_failed", "stage", "play", "err", err.Error(), "played", played.String())
	}
	// Muted, or the device failed: the sentence runs to its end in silence.
	return wait(ctx, time.Until(start.Add(total)))
}

// write sends the clip in chunks, with their mouth levels; it returns how
// much it queued, when its first sample is heard and when its last one
// ends.
func (c *clip) write(ctx context.Context, st audio.Stream) (played time.Duration, first, last time.Time, err error) {
	s := c.s
	f := c.pcm.Format
	win := f.Samples(audio.LevelWindow)
	chunk := max(win, f.Samples(s.opts.Chunk)/win*win)
	samples := c.pcm.Samples
	for off := 0; off < len(samples); off += chunk {
		if err := ctx.Err(); err != nil {
			return f.Duration(off), first, last, context.Cause(ctx)
		}
		cfg, _ := s.current()
		end := min(off+chunk, len(samples))
		heard, err := st.Write(ctx, audio.Scale(samples[off:end], cfg.gain()))
		if err != nil {
			if ctx.Err() != nil {
				err = context.Cause(ctx)
			}
			return f.Duration(off), first, last, err
		}
		if off == 0 {
			first = heard
		}
		last = heard.Add(f.Duration(end - off))
		lo, hi := off/win, min((end+win-1)/win, len(c.levels))
		if lo < hi {
			m := Mouth{At: heard, Step: audio.LevelWindow, Levels: c.levels[lo:hi], First: off == 0}
			if hi <= len(c.tones) {
				m.Tones = c.tones[lo:hi]
			}
			s.mouth(m)
		}
	}
	return f.Duration(len(samples)), first, last, nil
}

// handOver makes the rest of a clip's sound its tail: st drains on its own
// goroutine and closes, unless stop (a mute, Hush or Close) ends it first.
// It reports false when the speaker is closed (the caller drains).
func (s *Speaker) handOver(c *clip, st audio.Stream, stop context.CancelCauseFunc, soundCtx context.Context) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.tails[c] = func() { stop(errMuted) }
	s.tailWG.Add(1)
	go func() {
		defer s.tailWG.Done()
		err := st.Drain(soundCtx)
		st.Close()
		if err != nil {
			s.mouth(Mouth{At: time.Now()}) // stopped: the mouth closes now
		}
		stop(nil)
		s.mu.Lock()
		delete(s.tails, c)
		s.mu.Unlock()
	}()
	return true
}
