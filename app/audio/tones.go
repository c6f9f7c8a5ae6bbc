package audio

import (
	"math"
	"slices"
)

// The three bands Tones splits each window into (centre Hz, Q): the first
// formant of the closed and rounded vowels (u, o, i), the open vowels'
// first and the back vowels' second formant (a, o), and the front vowels'
// second formant (e, i).
var toneBands = [3]struct{ hz, q float64 }{{400, 0.9}, {1100, 1.4}, {2500, 1.2}}

// Tones returns one tone per LevelWindow of p, aligned with Levels: how
// bright the window sounds relative to the clip's other loud windows, 0
// (its darkest) to 100 (its brightest). A window's brightness is where its
// energy lies among three band-pass filters over the pre-emphasised signal
// (the first difference, as speech analysis does, so the weaker upper
// formants count): 0 all in the low band, 100 all in the high band. As
// Levels are relative to the clip's loudest window, tones spread the
// clip's brightness between its loud windows' 10th and 90th percentiles,
// so every voice's vowels use the whole range (a clip with too few loud
// windows, or too little spread, keeps the brightness). A window under
// the silence floor is 0. It is cheap — three biquads and one difference
// per sample, once per clip — and is what the VRM look picks the mouth's
// vowel shape from (u and o dark, a in the middle, e and i bright).
func Tones(p PCM) []uint8 {
	b, rms := brightness(p)
	if b == nil {
		return nil
	}
	peak := slices.Max(rms)
	var loud []float64
	for i, r := range rms {
		if r >= silenceFloor && r >= peak/4 {
			loud = append(loud, b[i])
		}
	}
	lo, hi := 0.0, 1.0
	if len(loud) >= 5 {
		slices.Sort(loud)
		if l, h := loud[len(loud)/10], loud[len(loud)*9/10]; h-l >= 0.05 {
			lo, hi = l, h
		}
	}
	out := make([]uint8, len(b))
	for i, v := range b {
		if rms[i] < silenceFloor {
			continue
		}
		out[i] = uint8(math.Round(100 * min(1, max(0, (v-lo)/(hi-lo)))))
	}
	return out
}

// brightness is each window's brightness (0–1) and RMS.
func brightness(p PCM) (b, rms []float64) {
	win := p.Format.Samples(LevelWindow)
	if win <= 0 || len(p.Samples) == 0 || p.Channels <= 0 {
		return nil, nil
	}
	var filters [3]biquad
	for i, b := range toneBands {
		filters[i] = bandPass(float64(p.Rate), b.hz, b.q)
	}
	n := (len(p.Samples) + win - 1) / win
	b, rms = make([]float64, n), make([]float64, n)
	prev := 0.0
	for w := range n {
		start, end := w*win, min((w+1)*win, len(p.Samples))
		var e [3]float64
		var raw float64
		for i := start; i < end; i += p.Channels {
			x := 0.0
			for c := range p.Channels {
				if i+c < end {
					x += float64(p.Samples[i+c]) / 32768
				}
			}
			x /= float64(p.Channels)
			raw += x * x
			d := x - prev // pre-emphasis
			prev = x
			for b := range filters {
				y := filters[b].step(d)
				e[b] += y * y
			}
		}
		frames := float64((end - start + p.Channels - 1) / p.Channels)
		rms[w] = math.Sqrt(raw / frames)
		if total := e[0] + e[1] + e[2]; total > 0 {
			b[w] = (0.5*e[1] + e[2]) / total
		}
	}
	return b, rms
}

// biquad is a second-order IIR section (transposed direct form II).
type biquad struct {
	b0, b1, b2, a1, a2 float64
	z1, z2             float64
}

// bandPass is the audio EQ cookbook's band-pass of 0 dB peak gain at hz.
func bandPass(rate, hz, q float64) biquad {
	w := 2 * math.Pi * min(hz, rate*0.45) / rate
	alpha := math.Sin(w) / (2 * q)
	a0 := 1 + alpha
	return biquad{b0: alpha / a0, b1: 0, b2: -alpha / a0, a1: -2 * math.Cos(w) / a0, a2: (1 - alpha) / a0}
}

func (f *biquad) step(x float64) float64 {
	y := f.b0*x + f.z1
	f.z1 = f.b1*x - f.a1*y + f.z2
	f.z2 = f.b2*x - f.a2*y
	return y
}
