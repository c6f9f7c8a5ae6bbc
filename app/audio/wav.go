package audio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// ErrNotWAV is returned for input that is not a RIFF/WAVE file.
var ErrNotWAV = errors.New("audio: not a WAV file")

// WAV format tags.
const (
	wavPCM        = 1
	wavFloat      = 3
	wavExtensible = 0xFFFE
)

// DecodeWAV reads a whole WAV file from r (at most max bytes, ErrTooLarge
// past that) and returns its samples as 16-bit PCM. Placeholder sizes in
// the RIFF header or the data chunk (0, 0xFFFFFFFF, or more than the input
// holds — what a writer that cannot seek back leaves) mean "up to the end
// of the input"; chunks other than fmt and data are skipped.
func DecodeWAV(r io.Reader, max int64) (PCM, error) {
	b, err := readAtMost(r, max)
	if err != nil {
		return PCM{}, err
	}
	return ParseWAV(b)
}

// ParseWAV is DecodeWAV on a byte slice.
func ParseWAV(b []byte) (PCM, error) {
	if len(b) < 12 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return PCM{}, ErrNotWAV
	}
	// The RIFF size is not trusted: the chunks are read up to the end of
	// the input.
	pos := 12
	var (
		haveFmt  bool
		tag      uint16
		channels int
		rate     int
		bits     int
	)
	for pos+8 <= len(b) {
		id := string(b[pos : pos+4])
		size := int64(binary.LittleEndian.Uint32(b[pos+4 : pos+8]))
		body := pos + 8
		rest := int64(len(b) - body)
		switch id {
		case "fmt ":
			if size < 16 || size > rest {
				return PCM{}, fmt.Errorf("audio: wav: fmt chunk of %d bytes", size)
			}
			tag = binary.LittleEndian.Uint16(b[body:])
			channels = int(binary.LittleEndian.Uint16(b[body+2:]))
			rate = int(binary.LittleEndian.Uint32(b[body+4:]))
			bits = int(binary.LittleEndian.Uint16(b[body+14:]))
			if tag == wavExtensible && size >= 40 {
				// The sub-format GUID starts with the real tag.
				tag = binary.LittleEndian.Uint16(b[body+24:])
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return PCM{}, errors.New("audio: wav: data before fmt")
			}
			if size == 0 || size == 0xFFFFFFFF || size > rest {
				size = rest // a placeholder: the data runs to the end
			}
			return decodeSamples(b[body:int64(body)+size], tag, channels, rate, bits)
		}
		if size > rest {
			break
		}
		pos = body + int(size) + int(size&1) // chunks are padded to even sizes
	}
	if !haveFmt {
		return PCM{}, errors.New("audio: wav: no fmt chunk")
	}
	return PCM{}, errors.New("audio: wav: no data chunk")
}

func decodeSamples(d []byte, tag uint16, channels, rate, bits int) (PCM, error) {
	f := Format{Rate: rate, Channels: channels}
	if !f.Valid() {
		return PCM{}, fmt.Errorf("audio: wav: unsupported format %d Hz × %d channels", rate, channels)
	}
	width := bits / 8
	if bits%8 != 0 || width < 1 || width > 4 {
		return PCM{}, fmt.Errorf("audio: wav: unsupported sample size %d bits", bits)
	}
	if tag == wavFloat && width != 4 {
		return PCM{}, fmt.Errorf("audio: wav: unsupported float size %d bits", bits)
	}
	if tag != wavPCM && tag != wavFloat {
		return PCM{}, fmt.Errorf("audio: wav: unsupported encoding %#x", tag)
	}
	n := len(d) / width
	n -= n % channels
	out := make([]int16, n)
	for i := range out {
		s := d[i*width:]
		switch {
		case tag == wavFloat:
			v := float64(math.Float32frombits(binary.LittleEndian.Uint32(s)))
			out[i] = int16(math.Max(-32768, math.Min(32767, v*32768)))
		case width == 1:
			out[i] = int16(int(s[0])-128) << 8
		case width == 2:
			out[i] = int16(binary.LittleEndian.Uint16(s))
		case width == 3:
			out[i] = int16(uint16(s[1]) | uint16(s[2])<<8)
		default:
			out[i] = int16(binary.LittleEndian.Uint16(s[2:]))
		}
	}
	return PCM{Format: f, Samples: out}, nil
}

// EncodeWAV writes p as a 16-bit PCM WAV file with exact sizes.
func EncodeWAV(p PCM) []byte {
	return encodeWAV(p, uint32(36+2*len(p.Samples)), uint32(2*len(p.Samples)))
}

// EncodeWAVStreaming writes p as a WAV file whose RIFF and data sizes are
// the placeholders a writer that cannot seek leaves (espeak-ng --stdout
// writes 0x7FFFF024 and 0x7FFFF000; streaming servers 0xFFFFFFFF).
func EncodeWAVStreaming(p PCM, riff, data uint32) []byte {
	return encodeWAV(p, riff, data)
}

func encodeWAV(p PCM, riffSize, dataSize uint32) []byte {
	b := make([]byte, 44, 44+2*len(p.Samples))
	copy(b[0:], "RIFF")
	binary.LittleEndian.PutUint32(b[4:], riffSize)
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16)
	binary.LittleEndian.PutUint16(b[20:], wavPCM)
	binary.LittleEndian.PutUint16(b[22:], uint16(p.Channels))
	binary.LittleEndian.PutUint32(b[24:], uint32(p.Rate))
	binary.LittleEndian.PutUint32(b[28:], uint32(p.BytesPerSecond()))
	binary.LittleEndian.PutUint16(b[32:], uint16(2*p.Channels))
	binary.LittleEndian.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], dataSize)
	return append(b, Bytes(p.Samples)...)
}
