package pulsetest

import (
	"testing"
	"time"

	"yui/app/audio"
	"yui/app/audio/pulse"
)

// Floor is the RMS over 10 ms (full scale 1) from which a recording counts
// as sounding.
const Floor = 0.02

// WaitRecorded waits until r holds audio up to wall time until, failing
// the test after 30 s (the recorder stalled).
func WaitRecorded(t testing.TB, r *pulse.Recorder, until time.Time) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if s := r.Start(); !s.IsZero() && s.Add(r.PCM().Format.Duration(r.Len())).After(until) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("pulsetest: the recording did not reach %v (%d samples)", until, r.Len())
		}
		// The recorder has no event to wait on; it fills every 10 ms.
		time.Sleep(10 * time.Millisecond)
	}
}

// Spans returns the runs of p's sounding 10 ms windows as [start, end)
// offsets, joining runs less than join apart.
func Spans(p audio.PCM, join time.Duration) [][2]time.Duration {
	win := p.Format.Samples(10 * time.Millisecond)
	var out [][2]time.Duration
	for i := 0; i+win <= len(p.Samples); i += win {
		if audio.RMS(p.Samples[i:i+win]) < Floor {
			continue
		}
		at, end := p.Format.Duration(i), p.Format.Duration(i+win)
		if n := len(out); n > 0 && at-out[n-1][1] < join {
			out[n-1][1] = end
			continue
		}
		out = append(out, [2]time.Duration{at, end})
	}
	return out
}

// AudibleTime is how much of p is sound: the sum of its sounding 10 ms
// windows. Unlike a span's extent it does not grow when a loaded machine
// makes a stream run dry for a moment.
func AudibleTime(p audio.PCM) time.Duration {
	win := p.Format.Samples(10 * time.Millisecond)
	n := 0
	for i := 0; i+win <= len(p.Samples); i += win {
		if audio.RMS(p.Samples[i:i+win]) >= Floor {
			n++
		}
	}
	return time.Duration(n) * 10 * time.Millisecond
}

// Slice returns the recording between two wall times.
func Slice(r *pulse.Recorder, from, to time.Time) audio.PCM {
	p := r.PCM()
	a := min(max(0, p.Format.Samples(from.Sub(r.Start()))), len(p.Samples))
	b := min(max(a, p.Format.Samples(to.Sub(r.Start()))), len(p.Samples))
	p.Samples = p.Samples[a:b]
	return p
}
