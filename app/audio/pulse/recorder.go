package pulse

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"time"

	"github.com/jfreymuth/pulse/proto"

	"yui/app/audio"
)

// Recorder records one source — typically a sink's monitor
// ("<sink>.monitor"), which hears exactly what the sink plays — into
// memory, as mono 16-bit PCM. Tests and benchmarks use it to check what
// reached the speaker. It is safe for concurrent use.
type Recorder struct {
	c      *conn
	index  uint32
	format audio.Format

	mu      sync.Mutex
	samples []int16
	start   time.Time // the estimated time of the first sample
	packets []packet  // when each packet arrived
	lost    bool
}

// packet is one delivery: the samples up to end arrived at at.
type packet struct {
	end int
	at  time.Time
}

// Record starts recording source at rate Hz mono. The server is found
// as for Output (server "" = the environment). Close the recorder to end
// the connection.
func Record(ctx context.Context, server, source string, rate int) (*Recorder, error) {
	c, err := dial(ctx, server, "Yui recorder")
	if err != nil {
		return nil, fmt.Errorf("pulse: record: %w", err)
	}
	f := audio.Format{Rate: rate, Channels: 1}
	frag := uint32(f.BytesPerSecond() / 100) // 10 ms packets
	r := &Recorder{c: c, format: f}
	req := proto.CreateRecordStream{
		SampleSpec:      proto.SampleSpec{Format: proto.FormatInt16LE, Channels: 1, Rate: uint32(rate)},
		ChannelMap:      proto.ChannelMap{proto.ChannelMono},
		SourceIndex:     proto.Undefined,
		SourceName:      source,
		BufferMaxLength: proto.Undefined,
		BufferFragSize:  frag,
		AdjustLatency:   true,
		Properties:      proto.PropList{"media.name": proto.PropListString("Yui recorder")},
		// Not a capture of one stream, and unit volume.
		DirectOnInputIndex: proto.Undefined,
		ChannelVolumes:     proto.ChannelVolumes{uint32(proto.VolumeNorm)},
	}
	var reply proto.CreateRecordStreamReply
	// The recorder is in place before the stream exists, so no packet
	// that follows the reply is missed.
	c.mu.Lock()
	c.rec = r
	c.mu.Unlock()
	if err := c.request(&req, &reply); err != nil {
		c.kill()
		return nil, fmt.Errorf("pulse: record %s: %w", source, err)
	}
	r.index = reply.StreamIndex
	return r, nil
}

// data runs on the connection's read goroutine.
func (r *Recorder) data(b []byte) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := 0; i+1 < len(b); i += 2 {
		r.samples = append(r.samples, int16(binary.LittleEndian.Uint16(b[i:])))
	}
	r.packets = append(r.packets, packet{end: len(r.samples), at: now})
	// A packet cannot arrive before its last sample was heard, so every
	// packet bounds the first sample's time from above; the tightest
	// bound (the packet delivered fastest) is the estimate.
	if at := now.Add(-r.format.Duration(len(r.samples))); r.start.IsZero() || at.Before(r.start) {
		r.start = at
	}
}

func (r *Recorder) lose() {
	r.mu.Lock()
	r.lost = true
	r.mu.Unlock()
}

// PCM returns a copy of everything recorded so far.
func (r *Recorder) PCM() audio.PCM {
	r.mu.Lock()
	defer r.mu.Unlock()
	return audio.PCM{Format: r.format, Samples: append([]int16(nil), r.samples...)}
}

// Len returns how many samples were recorded so far.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.samples)
}

// Start returns the estimated wall time of the first recorded sample
// (zero until data arrived): sample i was heard at Start() + i/rate. The
// estimate is late by the fastest packet delivery seen (a few ms).
func (r *Recorder) Start() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.start
}

// Arrived returns when sample i arrived from the server: the time its
// packet was read, a few milliseconds after the sink mixed it (for a
// null sink, the moment it "reached the speaker"). Zero when i was not
// recorded yet.
func (r *Recorder) Arrived(i int) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.packets {
		if i < p.end {
			return p.at
		}
	}
	return time.Time{}
}

// After returns the index of the first sample that arrived after t (the
// recording's length when none has yet).
func (r *Recorder) After(t time.Time) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	prev := 0
	for _, p := range r.packets {
		if p.at.After(t) {
			return prev
		}
		prev = p.end
	}
	return prev
}

// Lost reports whether the connection to the server was lost.
func (r *Recorder) Lost() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lost
}

// Close ends the recording and its connection.
func (r *Recorder) Close() error {
	r.c.kill()
	return nil
}
