package audio_test

import (
	"math"
	"testing"
	"time"

	"yui/app/audio"
)

// vowel is a crude two-formant vowel: sines at f1 and f2 (f2 at amp2 of
// f1's amplitude), 200 ms.
func vowel(rate int, f1, f2, amp2 float64) audio.PCM {
	n := rate / 5
	s := make([]int16, n)
	for i := range s {
		t := float64(i) / float64(rate)
		s[i] = int16(0.5 * 32767 * (math.Sin(2*math.Pi*f1*t) + amp2*math.Sin(2*math.Pi*f2*t)) / (1 + amp2))
	}
	return audio.PCM{Format: audio.Format{Rate: rate, Channels: 1}, Samples: s}
}

// mid is the middle window's tone (the filters have settled there).
func mid(t *testing.T, p audio.PCM) int {
	t.Helper()
	tones := audio.Tones(p)
	if len(tones) != len(audio.Levels(p)) {
		t.Fatalf("%d tones for %d levels", len(tones), len(audio.Levels(p)))
	}
	return int(tones[len(tones)/2])
}

func TestTonesRiseWithPitch(t *testing.T) {
	for _, rate := range []int{16000, 22050, 48000} {
		low := mid(t, sine(rate, 350, 200*time.Millisecond, 0.5))
		middle := mid(t, sine(rate, 1000, 200*time.Millisecond, 0.5))
		high := mid(t, sine(rate, 2700, 200*time.Millisecond, 0.5))
		if low >= 10 || middle < 35 || middle > 60 || high < 85 {
			t.Errorf("%d Hz: tones of 350, 1000, 2700 Hz = %d, %d, %d; want <10, 35–60, ≥85", rate, low, middle, high)
		}
	}
}

func TestTonesTellVowelsApart(t *testing.T) {
	rate := 22050
	// Rough formants (F1, F2 and F2's share) of five vowels.
	u := mid(t, vowel(rate, 320, 800, 0.3))
	o := mid(t, vowel(rate, 500, 900, 0.4))
	a := mid(t, vowel(rate, 750, 1200, 0.6))
	e := mid(t, vowel(rate, 450, 2000, 0.25))
	i := mid(t, vowel(rate, 280, 2300, 0.2))
	if !(u < o && o < a && a < e && e < i) {
		t.Errorf("tones u %d, o %d, a %d, e %d, i %d: want them in that order, darkest first", u, o, a, e, i)
	}
}

func TestTonesOfSilenceAndStereo(t *testing.T) {
	quiet := sine(16000, 2000, 100*time.Millisecond, 0.001) // -60 dBFS
	for i, v := range audio.Tones(quiet) {
		if v != 0 {
			t.Fatalf("silent window %d = %d", i, v)
		}
	}
	mono := sine(24000, 2700, 100*time.Millisecond, 0.5)
	st := audio.PCM{Format: audio.Format{Rate: 24000, Channels: 2}}
	for _, v := range mono.Samples {
		st.Samples = append(st.Samples, v, v)
	}
	if got, want := audio.Tones(st), audio.Tones(mono); len(got) != len(want) || got[2] != want[2] {
		t.Errorf("stereo tones %v, mono %v", got, want)
	}
	if audio.Tones(audio.PCM{Format: audio.Format{Rate: 16000, Channels: 1}}) != nil {
		t.Error("tones of an empty clip")
	}
}

// BenchmarkTones is a second of speech-rate audio; compare with
// BenchmarkLevels (both run once per synthesised sentence, in the core).
func BenchmarkTones(b *testing.B) {
	p := vowel(22050, 750, 1200, 0.6)
	p.Samples = append(append(append(append(p.Samples, p.Samples...), p.Samples...), p.Samples...), p.Samples...)
	for b.Loop() {
		audio.Tones(p)
	}
}

func BenchmarkLevels(b *testing.B) {
	p := vowel(22050, 750, 1200, 0.6)
	p.Samples = append(append(append(append(p.Samples, p.Samples...), p.Samples...), p.Samples...), p.Samples...)
	for b.Loop() {
		audio.Levels(p)
	}
}
