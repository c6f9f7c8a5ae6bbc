package pulse_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"yui/app/audio"
	"yui/app/audio/pulse"
	"yui/app/audio/pulse/pulsetest"
)

// These tests run on a private PulseAudio server (pulsetest): real
// sockets, real time; every wait is for recorded audio, bounded.

func tone(rate int, hz float64, d time.Duration, amp float64) []int16 {
	n := int(d.Seconds() * float64(rate))
	s := make([]int16, n)
	for i := range s {
		s[i] = int16(amp * 32767 * math.Sin(2*math.Pi*hz*float64(i)/float64(rate)))
	}
	return s
}

const recRate = 48000

func play(t *testing.T, out audio.Output, sink string, rate int, s []int16) (first time.Time) {
	t.Helper()
	ctx := context.Background()
	st, err := out.Open(ctx, audio.StreamOptions{Format: audio.Format{Rate: rate, Channels: 1}, Sink: sink, Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	chunk := rate / 10
	for off := 0; off < len(s); off += chunk {
		h, err := st.Write(ctx, s[off:min(off+chunk, len(s))])
		if err != nil {
			t.Fatal(err)
		}
		if first.IsZero() {
			first = h
		}
	}
	if err := st.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	return first
}

func TestPlaysOnTheSpeaker(t *testing.T) {
	srv := pulsetest.Start(t)
	rec := srv.Record(t, pulsetest.Speaker, recRate)
	pulsetest.WaitRecorded(t, rec, time.Now())
	out := pulse.New(pulse.Options{Server: srv.Addr})
	defer out.Close()
	t0 := time.Now()
	play(t, out, "", 22050, tone(22050, 440, 600*time.Millisecond, 0.5))
	end := time.Now()
	pulsetest.WaitRecorded(t, rec, end.Add(200*time.Millisecond))
	p := rec.PCM()
	spans := pulsetest.Spans(p, 50*time.Millisecond)
	if len(spans) != 1 {
		t.Fatalf("%d audible spans, want 1: %v", len(spans), spans)
	}
	d := spans[0][1] - spans[0][0]
	if d < 550*time.Millisecond || d > 700*time.Millisecond {
		t.Fatalf("heard %v of a 600 ms tone", d)
	}
	startAt := rec.Start().Add(spans[0][0])
	t.Logf("first audible %v after the first write", startAt.Sub(t0))
	if startAt.Sub(t0) > 150*time.Millisecond {
		t.Fatalf("first audible %v after the first write", startAt.Sub(t0))
	}
}

// Closing a stream drops what was queued: the sound stops within one
// buffer (100 ms) plus the sink's own latency.
func TestCloseSilencesWithinABuffer(t *testing.T) {
	srv := pulsetest.Start(t)
	rec := srv.Record(t, pulsetest.Speaker, recRate)
	pulsetest.WaitRecorded(t, rec, time.Now())
	out := pulse.New(pulse.Options{Server: srv.Addr})
	defer out.Close()
	ctx := context.Background()
	st, err := out.Open(ctx, audio.StreamOptions{Format: audio.Format{Rate: 24000, Channels: 1}})
	if err != nil {
		t.Fatal(err)
	}
	s := tone(24000, 300, 3*time.Second, 0.5)
	var first time.Time
	for off := 0; off < 24000*6/10; off += 2400 { // 600 ms of the 3 s
		h, err := st.Write(ctx, s[off:off+2400])
		if err != nil {
			t.Fatal(err)
		}
		if first.IsZero() {
			first = h
		}
	}
	closedAt := time.Now()
	st.Close()
	pulsetest.WaitRecorded(t, rec, closedAt.Add(500*time.Millisecond))
	spans := pulsetest.Spans(rec.PCM(), 50*time.Millisecond)
	if len(spans) != 1 {
		t.Fatalf("spans %v", spans)
	}
	last := rec.Start().Add(spans[0][1])
	t.Logf("sound ended %v after Close", last.Sub(closedAt))
	if after := last.Sub(closedAt); after > 100*time.Millisecond+60*time.Millisecond {
		t.Fatalf("sound went on %v after Close", after)
	}
	if _, err := st.Write(ctx, s[:100]); !errors.Is(err, audio.ErrClosed) {
		t.Fatalf("write after close: %v", err)
	}
}

// Two streams of different formats play at once: each stream has a sync
// group of its own (jfreymuth/pulse's stream puts all in group 0, and the
// server refuses the second).
func TestStreamsPlayTogether(t *testing.T) {
	srv := pulsetest.Start(t)
	out := pulse.New(pulse.Options{Server: srv.Addr})
	defer out.Close()
	ctx := context.Background()
	a, err := out.Open(ctx, audio.StreamOptions{Format: audio.Format{Rate: 22050, Channels: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := out.Open(ctx, audio.StreamOptions{Format: audio.Format{Rate: 24000, Channels: 2}})
	if err != nil {
		t.Fatalf("second stream: %v", err)
	}
	defer b.Close()
	done := make(chan error, 2)
	go func() { _, err := a.Write(ctx, tone(22050, 440, 300*time.Millisecond, 0.3)); done <- err }()
	go func() { _, err := b.Write(ctx, tone(24000, 660, 300*time.Millisecond, 0.3)); done <- err }()
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for _, st := range []audio.Stream{a, b} {
		if err := st.Drain(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSinks(t *testing.T) {
	srv := pulsetest.Start(t)
	out := pulse.New(pulse.Options{Server: srv.Addr})
	defer out.Close()
	ctx := context.Background()
	sinks, err := out.Sinks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(sinks) != 2 || sinks[0].Name != pulsetest.Other || sinks[0].Description != "Headphones" || sinks[0].Default ||
		sinks[1].Name != pulsetest.Speaker || !sinks[1].Default {
		t.Fatalf("sinks %+v", sinks)
	}
	name, err := out.Server(ctx)
	if err != nil || name == "" {
		t.Fatalf("server %q, %v", name, err)
	}
	// A stream on the headphones is heard there, not on the speaker; an
	// unknown device plays on the default one.
	speaker := srv.Record(t, pulsetest.Speaker, recRate)
	phones := srv.Record(t, pulsetest.Other, recRate)
	pulsetest.WaitRecorded(t, speaker, time.Now())
	pulsetest.WaitRecorded(t, phones, time.Now())
	play(t, out, pulsetest.Other, 16000, tone(16000, 500, 300*time.Millisecond, 0.5))
	mid := time.Now()
	play(t, out, "unplugged_usb_headset", 16000, tone(16000, 500, 300*time.Millisecond, 0.5))
	end := time.Now()
	pulsetest.WaitRecorded(t, speaker, end.Add(200*time.Millisecond))
	pulsetest.WaitRecorded(t, phones, end.Add(200*time.Millisecond))
	onPhones := pulsetest.Spans(phones.PCM(), 50*time.Millisecond)
	onSpeaker := pulsetest.Spans(speaker.PCM(), 50*time.Millisecond)
	if len(onPhones) != 1 || phones.Start().Add(onPhones[0][0]).After(mid) {
		t.Fatalf("headphones heard %v", onPhones)
	}
	if len(onSpeaker) != 1 || speaker.Start().Add(onSpeaker[0][1]).Before(mid) {
		t.Fatalf("speaker heard %v", onSpeaker)
	}
}

func TestNoServer(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "native")
	out := pulse.New(pulse.Options{Server: "unix:" + sock, RetryAfter: time.Hour})
	defer out.Close()
	ctx := context.Background()
	if _, err := out.Open(ctx, audio.StreamOptions{Format: audio.Format{Rate: 16000, Channels: 1}}); !errors.Is(err, audio.ErrNoServer) {
		t.Fatalf("open: %v", err)
	}
	// A server appearing there is not dialled again before RetryAfter:
	// a missing server costs nothing per sentence.
	os.WriteFile(sock, nil, 0o600)
	if _, err := out.Server(ctx); !errors.Is(err, audio.ErrNoServer) {
		t.Fatalf("server: %v", err)
	}
}

// The server going away fails the stream instead of hanging it, and the
// output dials again when it comes back.
func TestServerComesAndGoes(t *testing.T) {
	srv := pulsetest.Start(t)
	out := pulse.New(pulse.Options{Server: srv.Addr, RetryAfter: time.Millisecond})
	defer out.Close()
	ctx := context.Background()
	st, err := out.Open(ctx, audio.StreamOptions{Format: audio.Format{Rate: 16000, Channels: 1}})
	if err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	s := tone(16000, 440, 5*time.Second, 0.2)
	var werr error
	for off := 0; off < len(s) && werr == nil; off += 1600 {
		_, werr = st.Write(wctx, s[off:off+1600])
	}
	if werr == nil || wctx.Err() != nil {
		t.Fatalf("write to a stopped server: %v (deadline %v)", werr, wctx.Err())
	}
	if _, err := out.Open(ctx, audio.StreamOptions{Format: audio.Format{Rate: 16000, Channels: 1}}); !errors.Is(err, audio.ErrNoServer) {
		t.Fatalf("open after the server stopped: %v", err)
	}
}
