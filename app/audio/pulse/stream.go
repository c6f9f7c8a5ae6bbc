package pulse

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jfreymuth/pulse/proto"

	"yui/app/audio"
)

// stream is one playback stream. Write and Drain are used by one
// goroutine; grant, lose and Close may come from others.
type stream struct {
	c       *conn
	index   uint32
	format  audio.Format
	frame   int           // bytes per frame
	latency time.Duration // the sink's, as the server reported it

	mu       sync.Mutex
	credit   int   // bytes the server asked for and has not got yet
	err      error // set when the stream is closed or lost
	playhead time.Time
	wake     chan struct{}
	once     sync.Once
}

// open creates a stream on sink ("" = default) with the given buffer.
func (c *conn) open(o audio.StreamOptions, buffer time.Duration) (*stream, error) {
	f := o.Format
	bps := f.BytesPerSecond()
	frame := 2 * f.Channels
	at := func(d time.Duration) uint32 {
		n := int(int64(d) * int64(bps) / int64(time.Second))
		n -= n % frame
		return uint32(max(n, frame))
	}
	cmap := proto.ChannelMap{proto.ChannelMono}
	if f.Channels == 2 {
		cmap = proto.ChannelMap{proto.ChannelLeft, proto.ChannelRight}
	}
	vols := make(proto.ChannelVolumes, f.Channels)
	for i := range vols {
		vols[i] = uint32(proto.VolumeNorm)
	}
	name := o.Name
	if name == "" {
		name = "Yui"
	}
	req := proto.CreatePlaybackStream{
		SampleSpec:            proto.SampleSpec{Format: proto.FormatInt16LE, Channels: byte(f.Channels), Rate: uint32(f.Rate)},
		ChannelMap:            cmap,
		SinkIndex:             proto.Undefined,
		SinkName:              o.Sink,
		BufferMaxLength:       at(4 * buffer),
		Corked:                false,
		BufferTargetLength:    at(buffer),
		BufferPrebufferLength: at(min(buffer, 10*time.Millisecond)),
		BufferMinimumRequest:  at(min(buffer/2, 10*time.Millisecond)),
		SyncID:                c.syncID.Add(1), // its own sync group
		ChannelVolumes:        vols,
		AdjustLatency:         true,
		Properties: proto.PropList{
			"media.name":       proto.PropListString(name),
			"media.role":       proto.PropListString("a11y"),
			"application.name": proto.PropListString("Yui"),
		},
	}
	var reply proto.CreatePlaybackStreamReply
	err := c.request(&req, &reply)
	if o.Sink != "" && errors.Is(err, proto.ErrNoSuchEntity) {
		// A device that is gone (unplugged): the default one plays.
		req.SinkName = ""
		err = c.request(&req, &reply)
	}
	if err != nil {
		return nil, fmt.Errorf("pulse: create stream: %w", err)
	}
	s := &stream{c: c, index: reply.StreamIndex, format: f, frame: frame,
		latency: time.Duration(reply.SinkLatency) * time.Microsecond, credit: int(reply.Missing),
		wake: make(chan struct{}, 1)}
	c.register(s)
	return s, nil
}

func (s *stream) grant(n int) {
	s.mu.Lock()
	s.credit += n
	s.mu.Unlock()
	s.signal()
}

func (s *stream) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// lose ends the stream with err (server side: killed, connection gone).
func (s *stream) lose(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
	s.signal()
}

func (s *stream) Write(ctx context.Context, samples []int16) (time.Time, error) {
	b := audio.Bytes(samples)
	var heard time.Time
	first := true
	for len(b) > 0 {
		s.mu.Lock()
		if s.err != nil {
			err := s.err
			s.mu.Unlock()
			return heard, err
		}
		n := min(s.credit, len(b))
		n -= n % s.frame
		if n == 0 {
			s.mu.Unlock()
			select {
			case <-s.wake:
				continue
			case <-ctx.Done():
				return heard, ctx.Err()
			}
		}
		s.credit -= n
		now := time.Now()
		if start := now.Add(s.latency); s.playhead.Before(start) {
			s.playhead = start // idle or underrun: it starts anew
		}
		if first {
			heard, first = s.playhead, false
		}
		s.playhead = s.playhead.Add(s.format.Duration(n / 2))
		s.mu.Unlock()
		if err := s.c.c.Send(s.index, b[:n]); err != nil {
			s.c.kill()
			return heard, fmt.Errorf("pulse: write: %w", err)
		}
		b = b[n:]
	}
	return heard, nil
}

func (s *stream) Drain(ctx context.Context) error {
	s.mu.Lock()
	err := s.err
	s.mu.Unlock()
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- s.c.request(&proto.DrainPlaybackStream{StreamIndex: s.index}, nil) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		s.Close()
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("pulse: drain: %w", err)
	}
	// The stream's queue is empty; what the sink holds plays on.
	s.mu.Lock()
	left := time.Until(s.playhead)
	s.mu.Unlock()
	if left > 0 {
		t := time.NewTimer(left)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			s.Close()
			return ctx.Err()
		}
	}
	return nil
}

func (s *stream) Close() error {
	s.once.Do(func() {
		s.mu.Lock()
		if s.err == nil {
			s.err = audio.ErrClosed
		}
		s.mu.Unlock()
		s.signal()
		s.c.unregister(s.index)
		if !s.c.dead.Load() {
			// Deleting the stream drops its queue at once.
			s.c.request(&proto.DeletePlaybackStream{StreamIndex: s.index}, nil)
		}
	})
	return nil
}
