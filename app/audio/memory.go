package audio

import (
	"context"
	"sync"
	"time"
)

// Memory is an Output that plays into memory: a virtual speaker that
// consumes each stream in real time (time.Now and time timers, so
// testing/synctest fakes it) and records what was heard and when. Tests
// use it to see order, gaps, interruption, mute and volume without a sound
// server. The zero value is ready: a 40 ms device buffer, no start
// latency, one sink named "memory".
type Memory struct {
	// Buffer is how far ahead of the speaker a stream may be queued:
	// Write queues up to it and then waits until a quarter of it is free
	// again (a sound server's minimum request), and Close drops at most
	// this much. Zero is 40 ms.
	Buffer time.Duration
	// Latency is how long after a write into an idle stream its first
	// sample is heard.
	Latency time.Duration

	mu      sync.Mutex
	failure error // Open and Sinks fail with it
	sinks   []Sink
	streams []*memStream
	opened  int
}

// Chunk is a run of samples one stream played, as the speaker heard it.
type Chunk struct {
	Stream  int    // the stream's number, from 1 in Open order
	Name    string // StreamOptions.Name
	Sink    string // StreamOptions.Sink
	Format  Format
	At      time.Time // when its first sample was heard
	Samples []int16
}

// End is when the chunk's last sample finished.
func (c Chunk) End() time.Time { return c.At.Add(c.Format.Duration(len(c.Samples))) }

// SetFailure makes Open, Sinks and Server fail with err (nil heals).
func (m *Memory) SetFailure(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.failure = err
}

// SetSinks sets the devices Sinks lists.
func (m *Memory) SetSinks(s []Sink) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sinks = append([]Sink(nil), s...)
}

// Opened reports how many streams were opened.
func (m *Memory) Opened() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.opened
}

// Open implements Output.
func (m *Memory) Open(ctx context.Context, o StreamOptions) (Stream, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failure != nil {
		return nil, m.failure
	}
	if !o.Format.Valid() {
		return nil, errBadFormat(o.Format)
	}
	m.opened++
	s := &memStream{m: m, id: m.opened, opts: o, done: make(chan struct{})}
	m.streams = append(m.streams, s)
	return s, nil
}

// Sinks implements Output.
func (m *Memory) Sinks(ctx context.Context) ([]Sink, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failure != nil {
		return nil, m.failure
	}
	if m.sinks == nil {
		return []Sink{{Name: "memory", Description: "Memory", Default: true}}, nil
	}
	return append([]Sink(nil), m.sinks...), nil
}

// Server implements Output.
func (m *Memory) Server(ctx context.Context) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failure != nil {
		return "", m.failure
	}
	return "Memory", nil
}

// Close implements Output: every stream stops.
func (m *Memory) Close() error {
	m.mu.Lock()
	ss := append([]*memStream(nil), m.streams...)
	m.mu.Unlock()
	for _, s := range ss {
		s.Close()
	}
	return nil
}

// Heard returns what the speaker has played up to now, in the order it was
// heard (by start time; streams playing at once interleave). A chunk still
// playing is cut at now; one dropped by Close is cut where it was closed.
func (m *Memory) Heard() []Chunk {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Chunk
	for _, s := range m.streams {
		limit := now
		if !s.closedAt.IsZero() && s.closedAt.Before(limit) {
			limit = s.closedAt
		}
		for _, c := range s.chunks {
			if !c.At.Before(limit) {
				continue
			}
			if c.End().After(limit) {
				keep := c.Format.Samples(limit.Sub(c.At))
				c.Samples = c.Samples[:min(keep, len(c.Samples))]
			}
			if len(c.Samples) > 0 {
				out = append(out, c)
			}
		}
	}
	sortChunks(out)
	return out
}

func sortChunks(c []Chunk) {
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && c[j].At.Before(c[j-1].At); j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
}

func (m *Memory) buffer() time.Duration {
	if m.Buffer > 0 {
		return m.Buffer
	}
	return 40 * time.Millisecond
}

type memStream struct {
	m    *Memory
	id   int
	opts StreamOptions
	done chan struct{}
	once sync.Once

	// guarded by m.mu
	playhead time.Time // when the queued audio ends
	chunks   []Chunk
	closedAt time.Time
}

func (s *memStream) Write(ctx context.Context, samples []int16) (time.Time, error) {
	var heard time.Time
	f := s.opts.Format
	for len(samples) > 0 {
		s.m.mu.Lock()
		if !s.closedAt.IsZero() {
			s.m.mu.Unlock()
			return heard, ErrClosed
		}
		now := time.Now()
		if !s.playhead.After(now) {
			s.playhead = now.Add(s.m.Latency) // idle: it starts anew
		}
		buf := s.m.buffer()
		room := buf - s.playhead.Sub(now)
		// Like a sound server's minimum request: wait for a quarter of the
		// buffer to be free before queueing more.
		if n := f.Samples(room); room >= buf/4 && n > 0 {
			n = min(n, len(samples))
			at := s.playhead
			if heard.IsZero() {
				heard = at
			}
			s.chunks = append(s.chunks, Chunk{Stream: s.id, Name: s.opts.Name, Sink: s.opts.Sink, Format: f,
				At: at, Samples: append([]int16(nil), samples[:n]...)})
			s.playhead = at.Add(f.Duration(n))
			samples = samples[n:]
			s.m.mu.Unlock()
			continue
		}
		wait := buf/4 - room
		s.m.mu.Unlock()
		if err := s.sleep(ctx, wait); err != nil {
			return heard, err
		}
	}
	return heard, nil
}

func (s *memStream) Drain(ctx context.Context) error {
	s.m.mu.Lock()
	left := time.Until(s.playhead)
	closed := !s.closedAt.IsZero()
	s.m.mu.Unlock()
	if closed {
		return ErrClosed
	}
	if left <= 0 {
		return nil
	}
	return s.sleep(ctx, left)
}

func (s *memStream) sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return ErrClosed
	}
}

func (s *memStream) Close() error {
	s.once.Do(func() {
		s.m.mu.Lock()
		s.closedAt = time.Now()
		s.m.mu.Unlock()
		close(s.done)
	})
	return nil
}
