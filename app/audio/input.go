package audio

import (
	"context"
	"time"
)

// Source is one capture device (a microphone, or a sink's monitor).
type Source struct {
	// Name identifies the device for CaptureOptions.Source and settings.
	Name string
	// Description is the device's name for people.
	Description string
	// Default is true for the device capture uses when none is named.
	Default bool
	// Monitor is true for a sink's monitor (it hears what the sink plays,
	// not a microphone).
	Monitor bool
	// EchoCancelled is true for a source the sound server runs through an
	// echo canceller (PulseAudio's module-echo-cancel): it does not hear
	// what the speakers play.
	EchoCancelled bool
}

// CaptureOptions describe a capture stream.
type CaptureOptions struct {
	// Format is the samples delivered (the server converts).
	Format Format
	// Source names the device; "" is the default one (an echo-cancelled
	// source when the server offers one, else the default).
	Source string
	// Chunk is how much audio each Read returns. Zero is 100 ms.
	Chunk time.Duration
	// Name is the stream's name in the system's volume control.
	Name string
}

// Input is a way to record sound. Implementations are safe for
// concurrent use.
type Input interface {
	// Capture opens the device and starts recording. It fails with
	// ErrNoServer (wrapped) when nothing can record now.
	Capture(ctx context.Context, o CaptureOptions) (Capture, error)
	// Sources lists the capture devices.
	Sources(ctx context.Context) ([]Source, error)
}

// Capture is one open recording. Read is used by one goroutine; Close may
// be called from any goroutine.
type Capture interface {
	// Read blocks until the next chunk (CaptureOptions.Chunk of samples)
	// arrived and returns it with the time its first sample was heard.
	// It fails with ErrClosed after Close or when the server went away.
	Read(ctx context.Context) (samples []int16, at time.Time, err error)
	// Close stops recording and closes the device. It is safe to call
	// more than once.
	Close() error
}
