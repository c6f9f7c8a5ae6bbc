package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxEvent bounds one event's data (and one line) in bytes.
const DefaultMaxEvent = 4 << 20

// ErrTooLong: an event or line is over the reader's bound.
var ErrTooLong = errors.New("sse: event over the size limit")

// Event is one dispatched event. Its slices are valid until the next call
// to Next.
type Event struct {
	// Name is the event field ("" when the event named none: "message").
	Name []byte
	// Data is the data lines joined with "\n".
	Data []byte
}

// Reader reads events from a stream. Not safe for concurrent use.
type Reader struct {
	br   *bufio.Reader
	max  int
	name []byte
	data []byte
	line []byte
	has  bool // a data field was seen for the event being built
}

// NewReader reads from r; max bounds an event's data and any single line
// (0 is DefaultMaxEvent).
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = DefaultMaxEvent
	}
	return &Reader{br: bufio.NewReaderSize(r, 32<<10), max: max}
}

// Next returns the next event with data. io.EOF at the end of the stream
// (an event not ended by a blank line is dropped, as the format says);
// ErrTooLong (wrapped) for an event over the bound; the reader's error
// otherwise.
func (r *Reader) Next() (Event, error) {
	r.name = r.name[:0]
	r.data = r.data[:0]
	r.has = false
	for {
		line, err := r.readLine()
		if err != nil {
			return Event{}, err
		}
		if len(line) == 0 {
			if !r.has {
				r.name = r.name[:0]
				continue
			}
			return Event{Name: r.name, Data: r.data}, nil
		}
		if line[0] == ':' {
			continue
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "data":
			if r.has {
				r.data = append(r.data, '\n')
			}
			if len(r.data)+len(value) > r.max {
				return Event{}, fmt.Errorf("%w (%d bytes)", ErrTooLong, r.max)
			}
			r.data = append(r.data, value...)
			r.has = true
		case "event":
			r.name = append(r.name[:0], value...)
		}
	}
}

// readLine returns the next line without its end (\n, \r\n or \r).
func (r *Reader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(r.line)+len(chunk) > r.max+2 {
			return nil, fmt.Errorf("%w (%d bytes)", ErrTooLong, r.max)
		}
		switch {
		case err == nil:
			if len(r.line) == 0 {
				return trimEOL(chunk), nil // the common case: no copy
			}
			r.line = append(r.line, chunk...)
			return trimEOL(r.line), nil
		case errors.Is(err, bufio.ErrBufferFull):
			r.line = append(r.line, chunk...)
		case errors.Is(err, io.EOF):
			if len(chunk) == 0 && len(r.line) == 0 {
				return nil, io.EOF
			}
			// A last line without its end; the event it belongs to is
			// not dispatched (no blank line follows).
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

func trimEOL(b []byte) []byte {
	b = b[:len(b)-1]
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return b
}
