package audio

import (
	"context"
	"errors"
	"time"
)

// ErrNoServer is returned by Output.Open and Output.Sinks when there is no
// sound server or device to play on.
var ErrNoServer = errors.New("audio: no sound server")

// ErrClosed is returned by a Stream used after Close, or whose output
// went away (the sound server quit).
var ErrClosed = errors.New("audio: stream closed")

// Sink is one output device.
type Sink struct {
	// Name identifies the device for StreamOptions.Sink and settings.
	Name string
	// Description is the device's name for people.
	Description string
	// Default is true for the device sound goes to when none is named.
	Default bool
}

// StreamOptions describe a stream.
type StreamOptions struct {
	Format Format
	// Sink names the device; "" (or a name the server does not know) is
	// the default device.
	Sink string
	// Name is the stream's name in the system's volume control.
	Name string
}

// Output is a way to make sound: a sound server connection or a device
// API. Implementations are safe for concurrent use.
type Output interface {
	// Open starts a stream. It fails with ErrNoServer (wrapped) when
	// nothing can play sound now.
	Open(ctx context.Context, o StreamOptions) (Stream, error)
	// Sinks lists the output devices.
	Sinks(ctx context.Context) ([]Sink, error)
	// Server names the sound server (e.g. "PulseAudio 16.1"), or returns
	// ErrNoServer (wrapped) with the reason there is none.
	Server(ctx context.Context) (string, error)
	// Close ends every stream and the connection.
	Close() error
}

// Stream plays one sequence of samples. It is used by one goroutine at a
// time; Close may be called from any goroutine.
type Stream interface {
	// Write queues samples (the stream's format, interleaved), blocking
	// while the device's buffer is full, and returns when the first of
	// them will be heard. ctx cancels the wait (nothing of an unqueued
	// rest is played).
	Write(ctx context.Context, samples []int16) (heard time.Time, err error)
	// Drain blocks until everything written was played, or ctx is done.
	Drain(ctx context.Context) error
	// Close stops the stream at once: what was not heard yet is dropped.
	// It is safe to call more than once.
	Close() error
}
