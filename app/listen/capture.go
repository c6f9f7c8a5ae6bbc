package listen

import (
	"context"
	"errors"
	"time"
	"yui/app/audio"
)

// The capture loop: the microphone read, the detector run over it, an utterance handed to the transcriber.

// utterance is the listener's view of the detector's open utterance.
type utterance struct {
	ignored bool      // hers, or while she talks with barge-in off
	at      time.Time // speech start, wall time
}

// run is the capture loop: open, read chunks, detect, until ctx ends.
func (l *Listener) run(ctx context.Context) {
	for {
		err := l.capture(ctx)
		if ctx.Err() != nil {
			return
		}
		short := "listening: no microphone"
		if errors.Is(err, audio.ErrNoServer) {
			short = "listening: no sound server"
		}
		l.log.Warn("listen_mic_failed", "err", err.Error())
		l.mu.Lock()
		l.setFullLocked(State{Mode: ModeError, Error: short, Fix: FixDevice})
		l.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-time.After(RetryOpen):
		}
	}
}

// capture records until ctx ends or the device fails.
func (l *Listener) capture(ctx context.Context) error {
	if l.opts.Input == nil {
		return errors.New("listen: no capture on this system")
	}
	l.mu.Lock()
	cfg := l.cfg
	l.mu.Unlock()
	c, err := l.opts.Input.Capture(ctx, audio.CaptureOptions{
		Format: audio.Format{Rate: Rate, Channels: 1}, Source: cfg.Source, Chunk: Chunk, Name: "Yui listening"})
	if err != nil {
		return err
	}
	defer func() {
		c.Close()
		l.mu.Lock()
		l.micOpen = false
		l.setFullLocked(l.state)
		l.mu.Unlock()
	}()
	l.log.Info("listen_mic_open", "source", cfg.Source)
	l.mu.Lock()
	l.micOpen = true
	if l.state.Mode == ModeError && l.state.Fix == FixDevice {
		l.setStateLocked(l.restMode())
	} else {
		l.setFullLocked(l.state)
	}
	l.mu.Unlock()

	dc := l.opts.Detector
	dc.Rate, dc.Sensitivity = Rate, cfg.Sensitivity
	d := NewDetector(dc)
	type chunkIn struct {
		s   []int16
		at  time.Time
		err error
	}
	chunks := make(chan chunkIn, 4)
	rctx, rcancel := context.WithCancel(ctx)
	defer rcancel()
	go func() {
		for {
			s, at, err := c.Read(rctx)
			select {
			case chunks <- chunkIn{s, at, err}:
			case <-rctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	var u *utterance
	held := false
	var lastAt time.Time // the time of the sample at d.Offset()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-l.ctl:
			l.mu.Lock()
			hold, sens := l.hold, l.cfg.Sensitivity
			l.mu.Unlock()
			d.SetSensitivity(sens)
			if hold != held {
				held = hold
				now := time.Now()
				if lastAt.IsZero() {
					lastAt = now
				}
				u = l.handle(d.Hold(hold), u, d, d.Offset(), lastAt)
			}
			l.mu.Lock()
			if !l.cfg.On && !l.hold && !l.once {
				l.stopLocked()
				l.mu.Unlock()
				return nil
			}
			l.mu.Unlock()
		case ch := <-chunks:
			if ch.err != nil {
				return ch.err
			}
			now := time.Now()
			speaking := false
			if l.opts.Speaking != nil {
				speaking, _ = l.opts.Speaking(now)
			}
			if speaking {
				d.SetDuck(Duck)
			} else {
				d.SetDuck(0)
			}
			base := d.Offset()
			evs := d.Push(ch.s)
			lastAt = ch.at.Add(time.Duration(len(ch.s)) * time.Second / Rate)
			u = l.handle(evs, u, d, base, ch.at)
			l.mu.Lock()
			meter := l.meter
			if l.once && !d.Open() && now.Sub(l.onceAt) >= OnceWait {
				l.log.Info("listen_once_nothing_heard")
				l.endOnceLocked()
			}
			stop := l.runCancel == nil
			l.mu.Unlock()
			if stop {
				return nil
			}
			if meter && l.opts.OnLevel != nil {
				db, floor, th := d.Level()
				l.opts.OnLevel(Level{DB: db, Floor: floor, Threshold: th})
			}
		}
	}
}

// handle acts on detector events; base is the offset of the sample heard
// at baseAt.
func (l *Listener) handle(evs []Event, u *utterance, d *Detector, base int, baseAt time.Time) *utterance {
	for _, ev := range evs {
		at := baseAt.Add(time.Duration(ev.Offset-base) * time.Second / Rate)
		switch ev.Kind {
		case Start:
			u = &utterance{at: at}
			speaking, since := false, time.Time{}
			if l.opts.Speaking != nil {
				speaking, since = l.opts.Speaking(time.Now())
			}
			barge := false
			l.mu.Lock()
			bargeOn := l.cfg.BargeIn
			l.mu.Unlock()
			switch {
			case ev.Forced:
				barge = speaking // push-to-talk is an explicit action
			case !speaking:
			case !bargeOn:
				u.ignored = true
			case at.Sub(since) < Guard:
				u.ignored = true
			default:
				barge = true
			}
			if barge && l.opts.BargeIn != nil {
				l.opts.BargeIn()
			}
			l.log.Info("listen_speech_start", "barge_in", barge, "ignored", u.ignored, "push_to_talk", ev.Forced,
				"detect_ms", time.Since(at).Milliseconds())
			if !u.ignored {
				l.mu.Lock()
				l.setStateLocked(ModeHearing)
				l.mu.Unlock()
			}
		case Discard:
			l.log.Info("listen_speech_dropped", "reason", ev.Reason)
			if u != nil && !u.ignored {
				l.mu.Lock()
				l.setStateLocked(l.restMode())
				l.mu.Unlock()
			}
			u = nil
		case End:
			pcm := audio.PCM{Format: audio.Format{Rate: Rate, Channels: 1}, Samples: ev.Audio}
			if u != nil && u.ignored && !ev.Forced {
				l.log.Info("listen_speech_dropped", "reason", "her_voice", "ms", pcm.Duration().Milliseconds())
				u = nil
				continue
			}
			u = nil
			l.log.Info("listen_speech_end", "ms", pcm.Duration().Milliseconds(), "bytes", 2*len(ev.Audio), "capped", ev.Capped)
			l.transcribe(pcm)
			l.mu.Lock()
			l.endOnceLocked()
			l.mu.Unlock()
		}
	}
	return u
}

// transcribe sends the utterance to the transcriber on a goroutine of
// its own and the transcript to the session.
func (l *Listener) transcribe(pcm audio.PCM) {
	l.mu.Lock()
	tr := l.tr
	l.sending++
	l.setStateLocked(ModeSending)
	l.mu.Unlock()
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		start := time.Now()
		var text string
		var err error
		if tr == nil {
			err = &Error{Short: "listening: set the transcription endpoint", Fix: FixEndpoint, Err: errors.New("listen: no transcription endpoint")}
		} else {
			text, err = tr.Transcribe(l.ctx, pcm)
		}
		ms := time.Since(start).Milliseconds()
		l.mu.Lock()
		l.sending--
		l.mu.Unlock()
		if l.ctx.Err() != nil {
			return
		}
		if err != nil {
			short, fix := "listening: transcription failed", FixEndpoint
			var le *Error
			if errors.As(err, &le) {
				short, fix = le.Short, le.Fix
			}
			l.log.Warn("listen_transcribe_failed", "ms", ms, "err", err.Error())
			l.mu.Lock()
			l.setFullLocked(State{Mode: ModeError, Error: short, Fix: fix})
			l.mu.Unlock()
			return
		}
		if Blank(text) {
			l.log.Info("listen_transcript_blank", "ms", ms)
		} else {
			l.log.Info("listen_turn_sent", "ms", ms, "chars", len([]rune(text)))
			if l.opts.Send != nil {
				l.opts.Send(text)
			}
		}
		l.mu.Lock()
		if l.sending == 0 && l.state.Mode == ModeSending {
			l.setStateLocked(l.restMode())
		}
		l.mu.Unlock()
	}()
}
