package listen

import (
	"math"
	"math/rand/v2"
	"time"
)

// Generated audio for the tests, 16 kHz mono.

func n(d time.Duration) int { return int(int64(Rate) * int64(d) / int64(time.Second)) }

// dbToAmp is the RMS amplitude of a level in dBFS.
func dbToAmp(db float64) float64 { return 32768 * math.Pow(10, db/20) }

// silence is digital silence.
func silence(d time.Duration) []float64 { return make([]float64, n(d)) }

// pink is pink noise (Paul Kellet's filter) at rms dBFS.
func pink(d time.Duration, db float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]float64, n(d))
	var b0, b1, b2, b3, b4, b5, b6 float64
	var sum2 float64
	for i := range out {
		w := r.Float64()*2 - 1
		b0 = 0.99886*b0 + w*0.0555179
		b1 = 0.99332*b1 + w*0.0750759
		b2 = 0.96900*b2 + w*0.1538520
		b3 = 0.86650*b3 + w*0.3104856
		b4 = 0.55000*b4 + w*0.5329522
		b5 = -0.7616*b5 - w*0.0168980
		out[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w*0.5362
		b6 = w * 0.115926
		sum2 += out[i] * out[i]
	}
	scale(out, db, sum2)
	return out
}

func scale(s []float64, db, sum2 float64) {
	if len(s) == 0 || sum2 == 0 {
		return
	}
	k := dbToAmp(db) / math.Sqrt(sum2/float64(len(s)))
	for i := range s {
		s[i] *= k
	}
}

// speech is a speech-like burst: a voiced source at pitch f0 (harmonics
// falling 6 dB an octave, a slow pitch drift) under a syllable envelope
// of 4 syllables a second (each 200 ms voiced, then a 50 ms dip 40 dB
// down), at db dBFS RMS over its voiced parts.
func speech(d time.Duration, db, f0 float64) []float64 {
	out := make([]float64, n(d))
	syl := n(250 * time.Millisecond)
	voiced := n(200 * time.Millisecond)
	var sum2 float64
	var cnt int
	phase := 0.0
	for i := range out {
		t := float64(i) / Rate
		f := f0 * (1 + 0.05*math.Sin(2*math.Pi*0.7*t))
		phase += 2 * math.Pi * f / Rate
		var v float64
		for h := 1; h <= 12; h++ {
			v += math.Sin(float64(h)*phase) / float64(h)
		}
		k := i % syl
		env := 0.01
		if k < voiced {
			env = math.Sin(math.Pi * float64(k) / float64(voiced))
			env = 0.01 + 0.99*env
			sum2 += v * env * v * env
			cnt++
		}
		out[i] = v * env
	}
	if cnt > 0 {
		k := dbToAmp(db) / math.Sqrt(sum2/float64(cnt))
		for i := range out {
			out[i] *= k
		}
	}
	return out
}

// mix adds b into a from offset at (growing a as needed).
func mix(a []float64, at time.Duration, b []float64) []float64 {
	o := n(at)
	if need := o + len(b); need > len(a) {
		a = append(a, make([]float64, need-len(a))...)
	}
	for i, v := range b {
		a[o+i] += v
	}
	return a
}

// pcm16 clips to int16.
func pcm16(s []float64) []int16 {
	out := make([]int16, len(s))
	for i, v := range s {
		out[i] = int16(max(-32768, min(32767, math.Round(v))))
	}
	return out
}

// feed pushes audio in 100 ms chunks and returns every event.
func feed(d *Detector, s []int16) []Event {
	var evs []Event
	c := n(Chunk)
	for i := 0; i < len(s); i += c {
		evs = append(evs, d.Push(s[i:min(i+c, len(s))])...)
	}
	return evs
}

// at converts an offset to time.
func at(off int) time.Duration { return time.Duration(off) * time.Second / Rate }
