package audio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"
)

// Format is the shape of 16-bit PCM: samples per second per channel, and
// the number of interleaved channels.
type Format struct {
	Rate     int
	Channels int
}

// Valid reports whether f can be played: 8 kHz to 192 kHz, 1 or 2 channels.
func (f Format) Valid() bool {
	return f.Rate >= 8000 && f.Rate <= 192000 && (f.Channels == 1 || f.Channels == 2)
}

// BytesPerSecond is the s16le byte rate of f.
func (f Format) BytesPerSecond() int { return f.Rate * f.Channels * 2 }

// Duration is how long n interleaved samples (all channels counted) play.
func (f Format) Duration(n int) time.Duration {
	if f.Rate <= 0 || f.Channels <= 0 {
		return 0
	}
	frames := n / f.Channels
	return time.Duration(int64(frames) * int64(time.Second) / int64(f.Rate))
}

// Samples is how many interleaved samples (a whole number of frames) play
// for d.
func (f Format) Samples(d time.Duration) int {
	frames := int(int64(d) * int64(f.Rate) / int64(time.Second))
	return frames * f.Channels
}

// PCM is a clip of signed 16-bit samples, interleaved by channel.
type PCM struct {
	Format
	Samples []int16
}

// Duration is how long the clip plays.
func (p PCM) Duration() time.Duration { return p.Format.Duration(len(p.Samples)) }

// ErrTooLarge is returned when audio passes the reader's size bound.
var ErrTooLarge = errors.New("audio: clip too large")

// ReadPCM reads raw s16le samples of format f from r until EOF, at most
// max bytes (ErrTooLarge past that). An odd trailing byte, or a partial
// frame, is dropped.
func ReadPCM(r io.Reader, f Format, max int64) (PCM, error) {
	if !f.Valid() {
		return PCM{}, fmt.Errorf("audio: unsupported format %d Hz × %d", f.Rate, f.Channels)
	}
	b, err := readAtMost(r, max)
	if err != nil {
		return PCM{}, err
	}
	n := len(b) / 2
	n -= n % f.Channels
	s := make([]int16, n)
	for i := range s {
		s[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return PCM{Format: f, Samples: s}, nil
}

// readAtMost reads r to EOF, failing with ErrTooLarge past max bytes.
func readAtMost(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("audio: read: %w", err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w (over %d bytes)", ErrTooLarge, max)
	}
	return b, nil
}

// Bytes encodes samples as s16le.
func Bytes(s []int16) []byte {
	b := make([]byte, 2*len(s))
	for i, v := range s {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
	}
	return b
}

// Scale returns s multiplied by gain (0 = silence, 1 = unchanged),
// clipped to the 16-bit range. s is not modified.
func Scale(s []int16, gain float64) []int16 {
	out := make([]int16, len(s))
	if gain <= 0 {
		return out
	}
	if gain == 1 {
		copy(out, s)
		return out
	}
	for i, v := range s {
		x := float64(v) * gain
		switch {
		case x > 32767:
			x = 32767
		case x < -32768:
			x = -32768
		}
		out[i] = int16(x)
	}
	return out
}

// Mono returns p mixed down to one channel (p itself when it is mono).
func Mono(p PCM) PCM {
	if p.Channels == 1 {
		return p
	}
	n := len(p.Samples) / p.Channels
	out := make([]int16, n)
	for i := range out {
		sum := 0
		for c := 0; c < p.Channels; c++ {
			sum += int(p.Samples[i*p.Channels+c])
		}
		out[i] = int16(sum / p.Channels)
	}
	return PCM{Format: Format{Rate: p.Rate, Channels: 1}, Samples: out}
}

// Resample converts mono p to rate by linear interpolation (enough for
// speech on its way to a mixer running at another rate). Stereo input is
// mixed to mono first.
func Resample(p PCM, rate int) PCM {
	p = Mono(p)
	if p.Rate == rate || len(p.Samples) == 0 {
		return PCM{Format: Format{Rate: rate, Channels: 1}, Samples: append([]int16(nil), p.Samples...)}
	}
	n := int(int64(len(p.Samples)) * int64(rate) / int64(p.Rate))
	out := make([]int16, n)
	step := float64(p.Rate) / float64(rate)
	last := len(p.Samples) - 1
	for i := range out {
		pos := float64(i) * step
		j := int(pos)
		if j >= last {
			out[i] = p.Samples[last]
			continue
		}
		frac := pos - float64(j)
		out[i] = int16(float64(p.Samples[j])*(1-frac) + float64(p.Samples[j+1])*frac)
	}
	return PCM{Format: Format{Rate: rate, Channels: 1}, Samples: out}
}
