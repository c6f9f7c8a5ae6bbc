package listen

import (
	"context"
	"errors"
	"testing"
	"time"

	"yui/app/audio"
	"yui/app/audio/winmm"
)

// On Windows the microphone is WinMM's waveIn (no cgo). Run under Wine by
// make wine-test (docs/windows.md): with a capture device a chunk is
// recorded; without one (a CI machine) Sources and Capture say so with
// audio.ErrNoServer, and nothing hangs or panics.
func TestTheWindowsInputIsWinMM(t *testing.T) {
	in := SystemInput(nil)
	if _, ok := in.(*winmm.Input); !ok {
		t.Fatalf("SystemInput is %T, want *winmm.Input", in)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srcs, err := in.Sources(ctx)
	if err != nil {
		if !errors.Is(err, audio.ErrNoServer) {
			t.Fatalf("Sources: %v, want a device or ErrNoServer", err)
		}
		t.Logf("no capture device here: %v", err)
		if _, err := in.Capture(ctx, audio.CaptureOptions{Format: audio.Format{Rate: 16000, Channels: 1}}); !errors.Is(err, audio.ErrNoServer) {
			t.Fatalf("Capture without a device: %v, want ErrNoServer", err)
		}
		return
	}
	t.Logf("capture devices: %+v", srcs)
	c, err := in.Capture(ctx, audio.CaptureOptions{Format: audio.Format{Rate: 16000, Channels: 1}, Chunk: 50 * time.Millisecond})
	if err != nil {
		t.Fatalf("Capture with a device: %v", err)
	}
	defer c.Close()
	if samples, _, err := c.Read(ctx); err != nil || len(samples) == 0 {
		t.Fatalf("Read: %d samples, %v", len(samples), err)
	}
}
