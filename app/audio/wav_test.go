package audio_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"time"

	"yui/app/audio"
)

func sine(rate int, hz float64, d time.Duration, amp float64) audio.PCM {
	n := int(d.Seconds() * float64(rate))
	s := make([]int16, n)
	for i := range s {
		s[i] = int16(amp * 32767 * math.Sin(2*math.Pi*hz*float64(i)/float64(rate)))
	}
	return audio.PCM{Format: audio.Format{Rate: rate, Channels: 1}, Samples: s}
}

func TestWAVRoundTripExactSizes(t *testing.T) {
	p := sine(22050, 440, 300*time.Millisecond, 0.5)
	got, err := audio.DecodeWAV(bytes.NewReader(audio.EncodeWAV(p)), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if got.Rate != 22050 || got.Channels != 1 || len(got.Samples) != len(p.Samples) {
		t.Fatalf("got %d Hz × %d, %d samples; want 22050 × 1, %d", got.Rate, got.Channels, len(got.Samples), len(p.Samples))
	}
	for i := range p.Samples {
		if got.Samples[i] != p.Samples[i] {
			t.Fatalf("sample %d: %d, want %d", i, got.Samples[i], p.Samples[i])
		}
	}
}

// Writers that cannot seek back leave placeholder sizes: espeak-ng
// --stdout writes 0x7FFFF024 / 0x7FFFF000, streaming servers 0xFFFFFFFF,
// some 0. All of them mean "to the end".
func TestWAVPlaceholderSizes(t *testing.T) {
	p := sine(24000, 220, 250*time.Millisecond, 0.3)
	for _, tc := range []struct {
		name       string
		riff, data uint32
	}{
		{"espeak-ng", 0x7FFFF024, 0x7FFFF000},
		{"all ones", 0xFFFFFFFF, 0xFFFFFFFF},
		{"zero", 0, 0},
		{"riff only", 0xFFFFFFFF, uint32(2 * len(p.Samples))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := audio.ParseWAV(audio.EncodeWAVStreaming(p, tc.riff, tc.data))
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Samples) != len(p.Samples) || got.Duration() != p.Duration() {
				t.Fatalf("%d samples (%v), want %d (%v)", len(got.Samples), got.Duration(), len(p.Samples), p.Duration())
			}
		})
	}
}

// wavFile builds a WAV by hand: a fmt chunk of the given encoding, extra
// chunks before data, and data of the given size field.
func wavFile(tag uint16, channels, rate, bits int, extensible bool, before []byte, data []byte, dataSize uint32) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(0xFFFFFFFF))
	b.WriteString("WAVE")
	fmtLen := 16
	if extensible {
		fmtLen = 40
	}
	b.WriteString("fmt ")
	binary.Write(&b, binary.LittleEndian, uint32(fmtLen))
	outer := tag
	if extensible {
		outer = 0xFFFE
	}
	binary.Write(&b, binary.LittleEndian, outer)
	binary.Write(&b, binary.LittleEndian, uint16(channels))
	binary.Write(&b, binary.LittleEndian, uint32(rate))
	binary.Write(&b, binary.LittleEndian, uint32(rate*channels*bits/8))
	binary.Write(&b, binary.LittleEndian, uint16(channels*bits/8))
	binary.Write(&b, binary.LittleEndian, uint16(bits))
	if extensible {
		binary.Write(&b, binary.LittleEndian, uint16(22))
		binary.Write(&b, binary.LittleEndian, uint16(bits))
		binary.Write(&b, binary.LittleEndian, uint32(0))
		binary.Write(&b, binary.LittleEndian, tag)
		b.Write(make([]byte, 14))
	}
	b.Write(before)
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, dataSize)
	b.Write(data)
	return b.Bytes()
}

func TestWAVEncodings(t *testing.T) {
	// One frame of full-ish positive and negative values per encoding.
	pcm8 := []byte{0xC0, 0x40}                          // +0.5, -0.5
	pcm24 := []byte{0x00, 0x00, 0x40, 0x00, 0x00, 0xC0} // +0.5, -0.5
	pcm32 := []byte{0, 0, 0, 0x40, 0, 0, 0, 0xC0}
	f32 := make([]byte, 8)
	binary.LittleEndian.PutUint32(f32, math.Float32bits(0.5))
	binary.LittleEndian.PutUint32(f32[4:], math.Float32bits(-0.5))
	list := append([]byte("LIST"), 3, 0, 0, 0, 'a', 'b', 'c', 0) // odd size, padded
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"8-bit", wavFile(1, 1, 8000, 8, false, nil, pcm8, 2)},
		{"24-bit", wavFile(1, 1, 8000, 24, false, nil, pcm24, 6)},
		{"32-bit", wavFile(1, 1, 8000, 32, false, nil, pcm32, 8)},
		{"float", wavFile(3, 1, 8000, 32, false, nil, f32, 8)},
		{"extensible 16-bit", wavFile(1, 1, 8000, 16, true, nil, []byte{0, 0x40, 0, 0xC0}, 4)},
		{"padded LIST chunk first", wavFile(1, 1, 8000, 16, false, list, []byte{0, 0x40, 0, 0xC0}, 0xFFFFFFFF)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := audio.ParseWAV(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Samples) != 2 || p.Samples[0] != 0x4000 || p.Samples[1] != -0x4000 {
				t.Fatalf("samples %v, want [16384 -16384]", p.Samples)
			}
		})
	}
}

func TestWAVRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"not riff", []byte("ID3\x03 something else entirely")},
		{"no data", wavFile(1, 1, 8000, 16, false, nil, nil, 0)[:36]},
		{"a-law", wavFile(6, 1, 8000, 8, false, nil, []byte{1, 2}, 2)},
		{"three channels", wavFile(1, 3, 8000, 16, false, nil, make([]byte, 6), 6)},
		{"rate too low", wavFile(1, 1, 100, 16, false, nil, make([]byte, 2), 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if p, err := audio.ParseWAV(tc.file); err == nil {
				t.Fatalf("accepted: %d samples", len(p.Samples))
			}
		})
	}
}

func TestDecodeBound(t *testing.T) {
	p := sine(16000, 440, time.Second, 0.5)
	_, err := audio.DecodeWAV(bytes.NewReader(audio.EncodeWAV(p)), 1000)
	if !errors.Is(err, audio.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	_, err = audio.ReadPCM(bytes.NewReader(make([]byte, 2001)), audio.Format{Rate: 24000, Channels: 1}, 2000)
	if !errors.Is(err, audio.ErrTooLarge) {
		t.Fatalf("pcm err = %v, want ErrTooLarge", err)
	}
}

func TestReadPCMDropsPartialFrame(t *testing.T) {
	p, err := audio.ReadPCM(bytes.NewReader([]byte{1, 0, 2, 0, 3}), audio.Format{Rate: 24000, Channels: 1}, 100)
	if err != nil || len(p.Samples) != 2 || p.Samples[1] != 2 {
		t.Fatalf("got %v, %v", p.Samples, err)
	}
}
