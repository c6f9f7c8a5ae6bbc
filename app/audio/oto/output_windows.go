//go:build windows

package oto

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/ebitengine/oto/v3"

	"yui/app/audio"
)

// Rate is the mixing rate of the one oto context.
const Rate = 48000

// deviceLatency is the estimate of the time from a sample leaving oto's
// player buffer to it being heard.
const deviceLatency = 30 * time.Millisecond

// Options configure an Output.
type Options struct {
	// Buffer is how far a writer may be ahead of the speaker; zero is
	// 50 ms.
	Buffer time.Duration
	// Logger gets audio_server_unavailable; nil discards.
	Logger *slog.Logger
}

// Output is an audio.Output on the Windows audio engine.
type Output struct {
	opts Options
	log  *slog.Logger

	once sync.Once
	ctx  *oto.Context
	err  error
}

// New returns an Output; the audio device is opened on first use.
func New(o Options) *Output {
	if o.Buffer <= 0 {
		o.Buffer = 50 * time.Millisecond
	}
	lg := o.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	return &Output{opts: o, log: lg}
}

func (o *Output) context() (*oto.Context, error) {
	o.once.Do(func() {
		ctx, ready, err := oto.NewContext(&oto.NewContextOptions{SampleRate: Rate, ChannelCount: 1,
			Format: oto.FormatSignedInt16LE, BufferSize: 40 * time.Millisecond})
		if err != nil {
			o.err = fmt.Errorf("%w: %v", audio.ErrNoServer, err)
			o.log.Warn("audio_server_unavailable", "err", err.Error())
			return
		}
		<-ready
		o.ctx = ctx
	})
	return o.ctx, o.err
}

// Open implements audio.Output.
func (o *Output) Open(ctx context.Context, so audio.StreamOptions) (audio.Stream, error) {
	if !so.Format.Valid() {
		return nil, fmt.Errorf("oto: unsupported format %d Hz × %d", so.Format.Rate, so.Format.Channels)
	}
	c, err := o.context()
	if err != nil {
		return nil, err
	}
	s := &stream{in: so.Format, limit: audio.Format{Rate: Rate, Channels: 1}.Samples(o.opts.Buffer), room: make(chan struct{}, 1)}
	s.player = c.NewPlayer(s)
	s.player.SetBufferSize(Rate * 2 / 50) // 20 ms of oto's own buffer
	return s, nil
}

// Sinks implements audio.Output: oto plays on the default device only.
func (o *Output) Sinks(ctx context.Context) ([]audio.Sink, error) {
	if _, err := o.context(); err != nil {
		return nil, err
	}
	return []audio.Sink{{Name: "", Description: "Default output device", Default: true}}, nil
}

// Server implements audio.Output.
func (o *Output) Server(ctx context.Context) (string, error) {
	if _, err := o.context(); err != nil {
		return "", err
	}
	return "Windows audio", nil
}

// Close implements audio.Output. oto's context lives as long as the
// process; its players are closed by their streams.
func (o *Output) Close() error { return nil }

// stream queues resampled samples for one oto player, which reads them
// on oto's mixing goroutine.
type stream struct {
	in     audio.Format
	limit  int // most samples queued
	player *oto.Player
	room   chan struct{} // signalled when the player took samples

	mu       sync.Mutex
	queue    []int16
	started  bool
	closed   bool
	playhead time.Time
}

// Read is the player's source. It never blocks (oto reads every player
// from one goroutine): with nothing queued it returns 0 bytes.
func (s *stream) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := min(len(p)/2, len(s.queue))
	for i := 0; i < n; i++ {
		v := uint16(s.queue[i])
		p[2*i], p[2*i+1] = byte(v), byte(v>>8)
	}
	s.queue = s.queue[n:]
	if n > 0 {
		select {
		case s.room <- struct{}{}:
		default:
		}
	}
	return 2 * n, nil
}

func (s *stream) Write(ctx context.Context, samples []int16) (time.Time, error) {
	pcm := audio.Resample(audio.PCM{Format: s.in, Samples: samples}, Rate)
	rest := pcm.Samples
	var heard time.Time
	for len(rest) > 0 {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return heard, audio.ErrClosed
		}
		n := min(s.limit-len(s.queue), len(rest))
		if n > 0 {
			now := time.Now()
			if start := now.Add(deviceLatency); s.playhead.Before(start) {
				s.playhead = start
			}
			if heard.IsZero() {
				heard = s.playhead
			}
			s.playhead = s.playhead.Add(pcm.Format.Duration(n))
			s.queue = append(s.queue, rest[:n]...)
			rest = rest[n:]
			start := !s.started
			s.started = true
			s.mu.Unlock()
			if start {
				s.player.Play()
			}
			continue
		}
		s.mu.Unlock()
		select {
		case <-s.room:
		case <-ctx.Done():
			return heard, ctx.Err()
		}
	}
	return heard, nil
}

func (s *stream) Drain(ctx context.Context) error {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for {
		s.mu.Lock()
		closed, empty, end := s.closed, len(s.queue) == 0, s.playhead
		s.mu.Unlock()
		if closed {
			return audio.ErrClosed
		}
		if empty && s.player.BufferedSize() == 0 && !time.Now().Before(end) {
			return nil
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			s.Close()
			return ctx.Err()
		}
	}
}

func (s *stream) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.queue = nil
	s.mu.Unlock()
	s.player.Pause()
	// oto's Player.Close does nothing since v3.4 (the player is freed by
	// its finalizer), so it is not called.
	return nil
}
