package pulse

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/jfreymuth/pulse/proto"

	"yui/app/audio"
)

// Options configure an Output.
type Options struct {
	// Server is a PulseAudio server string ("unix:/path", "tcp:host");
	// "" finds the server as libpulse does (package doc).
	Server string
	// AppName is the client name in the system's volume control; "" is
	// "Yui".
	AppName string
	// Buffer is each stream's target buffer: how far a writer may be
	// ahead of the speaker, and how much a stop drops (deleting the
	// stream drops it, so a stop is heard at once whatever its length).
	// Zero is 250 ms: a busy machine that holds the writer back for less
	// than that makes no gap in the sound (100 ms left a 60 ms gap in a
	// tone at a load of 10 on two cores); the start is not delayed, the
	// prebuffer stays 10 ms.
	Buffer time.Duration
	// RetryAfter is how long after a failed connection attempt Open fails
	// at once instead of dialling again. Zero is 30 s.
	RetryAfter time.Duration
	// Logger gets audio_server_connected / audio_server_unavailable
	// lines. Nil discards.
	Logger *slog.Logger
}

// Output is an audio.Output on a PulseAudio (or pipewire-pulse) server.
// It is safe for concurrent use.
type Output struct {
	opts Options
	log  *slog.Logger

	mu       sync.Mutex
	c        *conn
	lastErr  error
	lastTry  time.Time
	closed   bool
	reported bool // the unavailable line was logged since the last success
}

// New returns an Output; nothing is dialled until it is used.
func New(o Options) *Output {
	if o.AppName == "" {
		o.AppName = "Yui"
	}
	if o.Buffer <= 0 {
		o.Buffer = 250 * time.Millisecond
	}
	if o.RetryAfter <= 0 {
		o.RetryAfter = 30 * time.Second
	}
	lg := o.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	return &Output{opts: o, log: lg}
}

// connection returns the live connection, dialling when there is none
// (at most once per RetryAfter after a failure).
func (o *Output) connection(ctx context.Context) (*conn, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil, fmt.Errorf("%w: output closed", audio.ErrNoServer)
	}
	if o.c != nil && !o.c.dead.Load() {
		return o.c, nil
	}
	if o.c != nil {
		o.log.Warn("audio_server_lost", "server", o.c.server)
		o.c = nil
	}
	if o.lastErr != nil && time.Since(o.lastTry) < o.opts.RetryAfter {
		return nil, o.lastErr
	}
	o.lastTry = time.Now()
	// The connection is shared: one caller giving up (a sentence dropped)
	// must not fail it for everyone, so only the dial's own timeout bounds
	// it.
	c, err := dial(context.WithoutCancel(ctx), o.opts.Server, o.opts.AppName)
	if err != nil {
		o.lastErr = fmt.Errorf("%w: %v", audio.ErrNoServer, err)
		if !o.reported {
			o.reported = true
			o.log.Warn("audio_server_unavailable", "err", err.Error())
		}
		return nil, o.lastErr
	}
	o.c, o.lastErr, o.reported = c, nil, false
	o.log.Info("audio_server_connected", "server", c.server)
	return c, nil
}

// Open implements audio.Output.
func (o *Output) Open(ctx context.Context, so audio.StreamOptions) (audio.Stream, error) {
	if !so.Format.Valid() {
		return nil, fmt.Errorf("pulse: unsupported format %d Hz × %d", so.Format.Rate, so.Format.Channels)
	}
	c, err := o.connection(ctx)
	if err != nil {
		return nil, err
	}
	return c.open(so, o.opts.Buffer)
}

// Sinks implements audio.Output: the server's sinks, sorted by
// description, the default one marked.
func (o *Output) Sinks(ctx context.Context) ([]audio.Sink, error) {
	c, err := o.connection(ctx)
	if err != nil {
		return nil, err
	}
	var info proto.GetServerInfoReply
	if err := c.request(&proto.GetServerInfo{}, &info); err != nil {
		return nil, fmt.Errorf("pulse: server info: %w", err)
	}
	var list proto.GetSinkInfoListReply
	if err := c.request(&proto.GetSinkInfoList{}, &list); err != nil {
		return nil, fmt.Errorf("pulse: list sinks: %w", err)
	}
	out := make([]audio.Sink, 0, len(list))
	for _, s := range list {
		d := s.Device
		if d == "" {
			d = s.SinkName
		}
		out = append(out, audio.Sink{Name: s.SinkName, Description: d, Default: s.SinkName == info.DefaultSinkName})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Description < out[j].Description })
	return out, nil
}

// Server implements audio.Output: the server's name and version.
func (o *Output) Server(ctx context.Context) (string, error) {
	c, err := o.connection(ctx)
	if err != nil {
		return "", err
	}
	var info proto.GetServerInfoReply
	if err := c.request(&proto.GetServerInfo{}, &info); err != nil {
		return "", fmt.Errorf("pulse: server info: %w", err)
	}
	return info.PackageName + " " + info.PackageVersion, nil
}

// Close implements audio.Output.
func (o *Output) Close() error {
	o.mu.Lock()
	c := o.c
	o.c, o.closed = nil, true
	o.mu.Unlock()
	if c != nil {
		c.kill()
	}
	return nil
}
