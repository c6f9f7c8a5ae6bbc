package voice_test

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/audio"
	"yui/app/playback"
	"yui/app/voice"
)

// A speaker whose streams start 200 ms after they are opened: each clip
// returns 200 ms before its sound ends, so the next is heard as it ends;
// those last 200 ms are the clip's tail. A stop, a mute or Close in the
// tail silences it at once.
const tailLatency = 200 * time.Millisecond

func newTailRig(t *testing.T) *rig {
	e := &toneEngine{texts: three, dur: time.Second}
	return newRigOn(t, e, voice.Config{}, &audio.Memory{Buffer: 2 * tailLatency, Latency: tailLatency})
}

func TestNoGapAtALongStartLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newTailRig(t)
		r.say(three...)
		r.idle()
		sp := spans(r.mem, r.t0)
		if got := order(sp); !slices.Equal(got, []int{0, 1, 2}) {
			t.Fatalf("heard %v, want [0 1 2]", got)
		}
		for i, s := range sp {
			if s.end-s.start != time.Second {
				t.Errorf("sentence %d lasted %v, want 1s", i, s.end-s.start)
			}
			if i > 0 && s.start != sp[i-1].end {
				t.Errorf("sentence %d starts %v after sentence %d ends, want at once", i, s.start-sp[i-1].end, i-1)
			}
			if d := s.start - r.at(playback.SpeechStart, three[i]); d != tailLatency {
				t.Errorf("sentence %d heard %v after its speech_start, want %v", i, d, tailLatency)
			}
		}
		if got := r.mem.Opened(); got != 3 {
			t.Errorf("%d streams opened, want 3", got)
		}
	})
}

// stopInTail runs three one-second sentences and calls stop 100 ms into
// the first sentence's tail (sentence 0 is heard from 0.2 s to 1.2 s; its
// clip returned at 1.0 s and sentence 1's stream opened then, to be heard
// from 1.2 s). It returns when stop was called.
func stopInTail(t *testing.T, r *rig, stop func()) time.Duration {
	t.Helper()
	r.say(three...)
	time.Sleep(1100 * time.Millisecond)
	synctest.Wait()
	if got := r.at(playback.SpeechStart, three[1]); got != time.Second {
		t.Fatalf("sentence 1 started at %v, want 1s (its sound from 1.2s)", got)
	}
	at := time.Since(r.t0)
	stop()
	return at
}

// silencedAt checks that nothing was heard after at, and that the page was
// told the mouth closes then.
func silencedAt(t *testing.T, r *rig, at time.Duration) []heardSpan {
	t.Helper()
	sp := spans(r.mem, r.t0)
	for _, s := range sp {
		if s.end > at {
			t.Errorf("sentence %d heard until %v, after the stop at %v", s.k, s.end, at)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	closed := false
	for _, m := range r.mouths {
		if len(m.Levels) == 0 && m.At.Sub(r.t0) == at {
			closed = true
		}
	}
	if !closed {
		t.Error("no mouth-closing message at the stop")
	}
	return sp
}

func TestInterruptInTheTailSilencesIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newTailRig(t)
		at := stopInTail(t, r, func() { r.player.Interrupt() })
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if got := order(silencedAt(t, r, at)); !slices.Equal(got, []int{0}) {
			t.Errorf("heard %v, want [0]", got)
		}
	})
}

func TestMuteInTheTailSilencesIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newTailRig(t)
		at := stopInTail(t, r, func() { r.global.Set(true) })
		r.idle()
		if got := order(silencedAt(t, r, at)); !slices.Equal(got, []int{0}) {
			t.Errorf("heard %v, want [0]", got)
		}
		// The muted sentences kept their pace.
		if end := r.at(playback.SpeechEnd, three[1]); end < 2*time.Second || end > 2*time.Second+tailLatency {
			t.Errorf("muted sentence 1 ended at %v, want ~2s", end)
		}
	})
}

func TestCloseInTheTailSilencesIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newTailRig(t)
		at := stopInTail(t, r, func() {
			r.player.Close()
			r.sp.Close()
		})
		// Close returned with the tail already stopped.
		if d := time.Since(r.t0) - at; d != 0 {
			t.Errorf("Close took %v", d)
		}
		time.Sleep(3 * time.Second)
		synctest.Wait()
		silencedAt(t, r, at)
	})
}
