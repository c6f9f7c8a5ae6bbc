package voice

import (
	"context"
	"errors"
	"testing"
	"time"

	"yui/app/audio"
	"yui/app/audio/oto"
)

// On Windows the voice plays through the Windows audio engine (oto: WASAPI
// or WinMM, no cgo). Run under Wine by make wine-test (docs/windows.md):
// with a sound device the stream plays; without one (a CI machine) every
// call says so with audio.ErrNoServer, and nothing hangs or panics.
func TestTheWindowsOutputIsTheAudioEngine(t *testing.T) {
	out := SystemOutput(nil)
	if _, ok := out.(*oto.Output); !ok {
		t.Fatalf("SystemOutput is %T, want *oto.Output", out)
	}
	defer out.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sinks, err := out.Sinks(ctx)
	if err != nil {
		if !errors.Is(err, audio.ErrNoServer) {
			t.Fatalf("Sinks: %v, want a sink or ErrNoServer", err)
		}
		t.Logf("no sound device here: %v", err)
		if _, err := out.Open(ctx, audio.StreamOptions{Format: audio.Format{Rate: 24000, Channels: 1}}); !errors.Is(err, audio.ErrNoServer) {
			t.Fatalf("Open without a device: %v, want ErrNoServer", err)
		}
		return
	}
	if len(sinks) != 1 {
		t.Fatalf("sinks %+v, want the default device alone (oto cannot choose one)", sinks)
	}
	s, err := out.Open(ctx, audio.StreamOptions{Format: audio.Format{Rate: 24000, Channels: 1}, Name: "test"})
	if err != nil {
		t.Fatalf("Open with a device: %v", err)
	}
	if _, err := s.Write(ctx, make([]int16, 2400)); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if err := s.Drain(ctx); err != nil {
		t.Fatalf("Drain: %v", err)
	}
	s.Close()
}
