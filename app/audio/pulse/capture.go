package pulse

import (
	"context"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/jfreymuth/pulse/proto"

	"yui/app/audio"
)

// captureQueue bounds the chunks a capture holds for a reader that fell
// behind (2 s at 100 ms chunks); older chunks are dropped first.
const captureQueue = 20

// Input is an audio.Input on a PulseAudio (or pipewire-pulse) server.
// Each Capture has a connection of its own, dialled when it opens and
// closed with it, so nothing stays connected to the microphone while no
// one listens. It is safe for concurrent use.
type Input struct {
	opts Options
}

// NewInput returns an Input; nothing is dialled until it is used.
// Options.Buffer and RetryAfter are not used.
func NewInput(o Options) *Input {
	if o.AppName == "" {
		o.AppName = "Yui"
	}
	return &Input{opts: o}
}

// Sources implements audio.Input: the server's sources sorted by
// description, the default one marked; monitors and echo-cancelled
// sources flagged.
func (in *Input) Sources(ctx context.Context) ([]audio.Source, error) {
	c, err := dial(ctx, in.opts.Server, in.opts.AppName)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", audio.ErrNoServer, err)
	}
	defer c.kill()
	return sources(c)
}

func sources(c *conn) ([]audio.Source, error) {
	var info proto.GetServerInfoReply
	if err := c.request(&proto.GetServerInfo{}, &info); err != nil {
		return nil, fmt.Errorf("pulse: server info: %w", err)
	}
	var list proto.GetSourceInfoListReply
	if err := c.request(&proto.GetSourceInfoList{}, &list); err != nil {
		return nil, fmt.Errorf("pulse: list sources: %w", err)
	}
	out := make([]audio.Source, 0, len(list))
	for _, s := range list {
		d := s.Device
		if d == "" {
			d = s.SourceName
		}
		out = append(out, audio.Source{
			Name:          s.SourceName,
			Description:   d,
			Default:       s.SourceName == info.DefaultSourceName,
			Monitor:       s.MonitorSourceIndex != proto.Undefined,
			EchoCancelled: echoCancelled(s),
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Description < out[j].Description })
	return out, nil
}

// echoCancelled recognises module-echo-cancel's source (PulseAudio names
// its driver; PipeWire's echo-cancel sets the same media role property).
func echoCancelled(s *proto.GetSourceInfoReply) bool {
	if strings.Contains(s.Driver, "echo-cancel") || strings.Contains(s.Driver, "echo_cancel") {
		return true
	}
	if v, ok := s.Properties["device.intended_roles"]; ok && strings.Contains(v.String(), "phone") {
		return true
	}
	return strings.Contains(s.SourceName, "echo-cancel") || strings.Contains(s.SourceName, "echo_cancel")
}

// pickSource is the source to record when the settings name none: an
// echo-cancelled microphone when the server has one, else the default.
func pickSource(list []audio.Source) string {
	for _, s := range list {
		if s.EchoCancelled && !s.Monitor {
			return s.Name
		}
	}
	return "" // the server's default
}

// Capture implements audio.Input.
func (in *Input) Capture(ctx context.Context, o audio.CaptureOptions) (audio.Capture, error) {
	if !o.Format.Valid() {
		return nil, fmt.Errorf("pulse: unsupported capture format %d Hz × %d", o.Format.Rate, o.Format.Channels)
	}
	if o.Chunk <= 0 {
		o.Chunk = 100 * time.Millisecond
	}
	name := o.Name
	if name == "" {
		name = "Yui microphone"
	}
	c, err := dial(ctx, in.opts.Server, in.opts.AppName)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", audio.ErrNoServer, err)
	}
	source := o.Source
	if source == "" {
		if list, err := sources(c); err == nil {
			source = pickSource(list)
		}
	}
	chunkBytes := o.Format.Samples(o.Chunk) * 2
	cp := &capture{c: c, format: o.Format, chunk: chunkBytes / 2, ready: make(chan struct{}, 1)}
	req := proto.CreateRecordStream{
		SampleSpec:  proto.SampleSpec{Format: proto.FormatInt16LE, Channels: byte(o.Format.Channels), Rate: uint32(o.Format.Rate)},
		SourceIndex: proto.Undefined,
		SourceName:  source,
		// The server delivers one fragment per chunk: one wake-up per
		// chunk is the whole cost of listening at rest.
		BufferMaxLength:    uint32(4 * chunkBytes),
		BufferFragSize:     uint32(chunkBytes),
		AdjustLatency:      true,
		Properties:         proto.PropList{"media.name": proto.PropListString(name), "media.role": proto.PropListString("phone")},
		DirectOnInputIndex: proto.Undefined,
	}
	if o.Format.Channels == 1 {
		req.ChannelMap = proto.ChannelMap{proto.ChannelMono}
		req.ChannelVolumes = proto.ChannelVolumes{uint32(proto.VolumeNorm)}
	} else {
		req.ChannelMap = proto.ChannelMap{proto.ChannelLeft, proto.ChannelRight}
		req.ChannelVolumes = proto.ChannelVolumes{uint32(proto.VolumeNorm), uint32(proto.VolumeNorm)}
	}
	c.mu.Lock()
	c.rec = cp
	c.mu.Unlock()
	var reply proto.CreateRecordStreamReply
	if err := c.request(&req, &reply); err != nil {
		c.kill()
		return nil, fmt.Errorf("pulse: capture %q: %w", source, err)
	}
	return cp, nil
}

// capture is one recording on its own connection.
type capture struct {
	c      *conn
	format audio.Format
	chunk  int // samples per chunk

	mu      sync.Mutex
	partial []int16
	queue   []chunk
	lost    bool
	closed  bool
	dropped int
	ready   chan struct{} // a chunk was queued or the capture was lost
}

type chunk struct {
	s  []int16
	at time.Time
}

// data runs on the connection's read goroutine: it cuts what arrives into
// chunks, stamping each with when its first sample was heard (the
// packet's arrival less the audio that came with or after it).
func (cp *capture) data(b []byte) {
	now := time.Now()
	cp.mu.Lock()
	n := len(b) / 2
	tail := len(cp.partial) + n
	for i := 0; i+1 < len(b); i += 2 {
		cp.partial = append(cp.partial, int16(binary.LittleEndian.Uint16(b[i:])))
	}
	queued := false
	for len(cp.partial) >= cp.chunk {
		s := make([]int16, cp.chunk)
		copy(s, cp.partial)
		at := now.Add(-cp.format.Duration(tail))
		tail -= cp.chunk
		cp.partial = append(cp.partial[:0], cp.partial[cp.chunk:]...)
		if len(cp.queue) >= captureQueue {
			cp.queue = cp.queue[1:]
			cp.dropped++
		}
		cp.queue = append(cp.queue, chunk{s: s, at: at})
		queued = true
	}
	cp.mu.Unlock()
	if queued {
		select {
		case cp.ready <- struct{}{}:
		default:
		}
	}
}

func (cp *capture) lose() {
	cp.mu.Lock()
	cp.lost = true
	cp.mu.Unlock()
	select {
	case cp.ready <- struct{}{}:
	default:
	}
}

// Read implements audio.Capture.
func (cp *capture) Read(ctx context.Context) ([]int16, time.Time, error) {
	for {
		cp.mu.Lock()
		if cp.closed {
			cp.mu.Unlock()
			return nil, time.Time{}, audio.ErrClosed
		}
		if len(cp.queue) > 0 {
			ch := cp.queue[0]
			cp.queue = cp.queue[1:]
			cp.mu.Unlock()
			return ch.s, ch.at, nil
		}
		lost := cp.lost
		cp.mu.Unlock()
		if lost {
			return nil, time.Time{}, audio.ErrClosed
		}
		select {
		case <-cp.ready:
		case <-ctx.Done():
			return nil, time.Time{}, ctx.Err()
		}
	}
}

// Close implements audio.Capture.
func (cp *capture) Close() error {
	cp.mu.Lock()
	cp.closed, cp.queue = true, nil
	cp.mu.Unlock()
	cp.c.kill()
	return nil
}
