package audio

import (
	"math"
	"time"
)

// LevelWindow is the span of one mouth level.
const LevelWindow = 20 * time.Millisecond

// silenceFloor is the RMS (full scale 1) under which a window reads as
// closed mouth: -45 dBFS.
var silenceFloor = math.Pow(10, -45.0/20)

// RMS returns the root mean square of s, full scale 1.
func RMS(s []int16) float64 {
	if len(s) == 0 {
		return 0
	}
	var sum float64
	for _, v := range s {
		x := float64(v) / 32768
		sum += x * x
	}
	return math.Sqrt(sum / float64(len(s)))
}

// Levels returns one level per LevelWindow of p (the last window may be
// shorter): the window's RMS relative to the loudest window of the clip,
// as 0–100, with windows under -45 dBFS at 0. A silent clip gives all
// zeros.
func Levels(p PCM) []uint8 {
	win := p.Format.Samples(LevelWindow)
	if win <= 0 || len(p.Samples) == 0 {
		return nil
	}
	n := (len(p.Samples) + win - 1) / win
	rms := make([]float64, n)
	peak := 0.0
	for i := range rms {
		end := min((i+1)*win, len(p.Samples))
		rms[i] = RMS(p.Samples[i*win : end])
		peak = max(peak, rms[i])
	}
	out := make([]uint8, n)
	if peak < silenceFloor {
		return out
	}
	for i, r := range rms {
		if r < silenceFloor {
			continue
		}
		out[i] = uint8(math.Round(100 * r / peak))
	}
	return out
}
