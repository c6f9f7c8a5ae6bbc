package pulse_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"yui/app/audio"
	"yui/app/audio/pulse"
	"yui/app/audio/pulse/pulsetest"
)

func TestCaptureHearsTheMicrophone(t *testing.T) {
	srv := pulsetest.StartWithMic(t)
	in := pulse.NewInput(pulse.Options{Server: srv.Addr})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	src, err := in.Sources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var mic *audio.Source
	for i := range src {
		if src[i].Name == pulsetest.Mic+".monitor" {
			mic = &src[i]
		}
	}
	if mic == nil || !mic.Default || !mic.Monitor || mic.EchoCancelled {
		t.Fatalf("sources %+v", src)
	}
	// The default source, 100 ms chunks.
	c, err := in.Capture(ctx, audio.CaptureOptions{Format: audio.Format{Rate: 16000, Channels: 1}, Chunk: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out := pulse.New(pulse.Options{Server: srv.Addr})
	defer out.Close()
	played := make(chan struct{})
	go func() {
		defer close(played)
		play(t, out, pulsetest.Mic, 16000, tone(16000, 440, 1500*time.Millisecond, 0.5))
	}()
	loud := 0
	var first, prev time.Time
	n := 0
	// Read until five loud chunks came, or the tone was played and
	// another second of chunks went by without them.
	after := -1
	for loud < 5 && after < 10 {
		select {
		case <-played:
			after++
		default:
		}
		s, at, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(s) != 1600 {
			t.Fatalf("chunk of %d samples, want 1600", len(s))
		}
		if !prev.IsZero() && !at.After(prev) {
			t.Errorf("chunk stamps go back: %v after %v", at, prev)
		}
		if first.IsZero() {
			first = at
		}
		prev = at
		n++
		if audio.RMS(s) > 0.2 {
			loud++
		}
	}
	<-played
	if loud < 5 {
		t.Fatalf("the tone played into the mic was not captured")
	}
	// Stamps are estimates from arrival times: on average one chunk apart.
	if span, want := prev.Sub(first), time.Duration(n-1)*100*time.Millisecond; span < want-150*time.Millisecond || span > want+150*time.Millisecond {
		t.Errorf("%d chunks stamped over %v, want about %v", n, span, want)
	}
	c.Close()
	if _, _, err := c.Read(ctx); !errors.Is(err, audio.ErrClosed) {
		t.Errorf("read after close: %v", err)
	}
}

func TestCaptureWithoutServer(t *testing.T) {
	in := pulse.NewInput(pulse.Options{Server: "unix:/nonexistent/native"})
	_, err := in.Capture(context.Background(), audio.CaptureOptions{Format: audio.Format{Rate: 16000, Channels: 1}})
	if !errors.Is(err, audio.ErrNoServer) {
		t.Fatalf("err %v", err)
	}
}
