package audio_test

import (
	"testing"
	"time"

	"yui/app/audio"
)

func TestLevelsFollowLoudness(t *testing.T) {
	rate := 24000
	loud := sine(rate, 200, 100*time.Millisecond, 0.8)
	soft := sine(rate, 200, 100*time.Millisecond, 0.2)
	quiet := sine(rate, 200, 100*time.Millisecond, 0.001) // -60 dBFS: silence
	p := audio.PCM{Format: loud.Format}
	for _, part := range []audio.PCM{loud, soft, quiet} {
		p.Samples = append(p.Samples, part.Samples...)
	}
	lv := audio.Levels(p)
	if len(lv) != 15 {
		t.Fatalf("%d windows for 300 ms, want 15", len(lv))
	}
	for i, v := range lv {
		switch {
		case i < 5 && (v < 95 || v > 100):
			t.Errorf("loud window %d = %d, want ~100", i, v)
		case i >= 5 && i < 10 && (v < 20 || v > 30):
			t.Errorf("soft window %d = %d, want ~25", i, v)
		case i >= 10 && v != 0:
			t.Errorf("silent window %d = %d, want 0", i, v)
		}
	}
}

func TestLevelsOfSilence(t *testing.T) {
	p := audio.PCM{Format: audio.Format{Rate: 16000, Channels: 1}, Samples: make([]int16, 16000)}
	for i, v := range audio.Levels(p) {
		if v != 0 {
			t.Fatalf("window %d = %d", i, v)
		}
	}
	if lv := audio.Levels(audio.PCM{Format: p.Format}); len(lv) != 0 {
		t.Fatalf("empty clip gave %v", lv)
	}
}

func TestScaleAndResample(t *testing.T) {
	s := audio.Scale([]int16{1000, -1000, 30000}, 0.5)
	if s[0] != 500 || s[1] != -500 || s[2] != 15000 {
		t.Fatalf("half: %v", s)
	}
	if s := audio.Scale([]int16{30000, -30000}, 2); s[0] != 32767 || s[1] != -32768 {
		t.Fatalf("clipped: %v", s)
	}
	if s := audio.Scale([]int16{5}, 0); s[0] != 0 {
		t.Fatalf("zero gain: %v", s)
	}
	p := sine(22050, 440, time.Second, 0.5)
	r := audio.Resample(p, 48000)
	if r.Rate != 48000 || len(r.Samples) != 48000 {
		t.Fatalf("resampled to %d Hz, %d samples", r.Rate, len(r.Samples))
	}
	if d := r.Duration() - p.Duration(); d < -time.Millisecond || d > time.Millisecond {
		t.Fatalf("duration changed by %v", d)
	}
	st := audio.PCM{Format: audio.Format{Rate: 8000, Channels: 2}, Samples: []int16{100, 300, -100, -300}}
	if m := audio.Mono(st); len(m.Samples) != 2 || m.Samples[0] != 200 || m.Samples[1] != -200 {
		t.Fatalf("mono: %v", m.Samples)
	}
}
