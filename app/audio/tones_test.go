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
	// Rough formants (F1, F2 and F2's share) of five vowels, alone and in
	// one clip (where they spread over the whole range).
	vowels := []audio.PCM{vowel(rate, 320, 800, 0.3), vowel(rate, 500, 900, 0.4), vowel(rate, 750, 1200, 0.6),
		vowel(rate, 450, 2000, 0.25), vowel(rate, 280, 2300, 0.2)}
	alone := make([]int, len(vowels))
	clip := audio.PCM{Format: vowels[0].Format}
	for i, v := range vowels {
		alone[i] = mid(t, v)
		clip.Samples = append(clip.Samples, v.Samples...)
	}
	tones := audio.Tones(clip)
	per := len(tones) / len(vowels)
	together := make([]int, len(vowels))
	for i := range vowels {
		together[i] = int(tones[i*per+per/2])
	}
	for i := 1; i < len(vowels); i++ {
		if alone[i] <= alone[i-1] || together[i] <= together[i-1] {
			t.Fatalf("tones of u, o, a, e, i: alone %v, in one clip %v; want them rising, darkest first", alone, together)
		}
	}
	if together[0] > 10 || together[4] < 90 {
		t.Errorf("in one clip u and i have tones %d and %d; want the ends of the range", together[0], together[4])
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
