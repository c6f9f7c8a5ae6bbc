package chatcompletions_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"yui/transport/chatcompletions"
	ssereader "yui/transport/internal/sse"
	"yui/transport/internal/wiretest"
)

// stream2000 is a 2,000-delta reply as a server streams it.
func stream2000() []byte {
	var b strings.Builder
	for i := range 2000 {
		b.WriteString("data: ")
		b.WriteString(wiretest.Content([]string{"Hello", " there", ",", " friend", ".", " How", " are", " you", "?", " "}[i%10]))
		b.WriteString("\n\n")
	}
	b.WriteString("data: " + wiretest.Finish("stop") + "\n\ndata: " + wiretest.Usage + "\n\ndata: [DONE]\n\n")
	return []byte(b.String())
}

// decodeYui is the wire's decode: the SSE reader and the typed chunk.
func decodeYui(in []byte) (int, error) {
	r := ssereader.NewReader(bytes.NewReader(in), 0)
	n := 0
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		if string(ev.Data) == "[DONE]" {
			return n, nil
		}
		var c chatcompletions.Chunk
		if err := json.Unmarshal(ev.Data, &c); err != nil {
			return n, err
		}
		for _, ch := range c.Choices {
			n += len(ch.Delta.Content)
		}
	}
}

// decodeFloor is the floor: bufio.Scanner lines and json.Unmarshal of
// the same struct, with none of the format's rules.
func decodeFloor(in []byte) (int, error) {
	sc := bufio.NewScanner(bytes.NewReader(in))
	n := 0
	for sc.Scan() {
		line := sc.Bytes()
		d, ok := bytes.CutPrefix(line, []byte("data: "))
		if !ok {
			continue
		}
		if string(d) == "[DONE]" {
			return n, nil
		}
		var c chatcompletions.Chunk
		if err := json.Unmarshal(d, &c); err != nil {
			return n, err
		}
		for _, ch := range c.Choices {
			n += len(ch.Delta.Content)
		}
	}
	return n, sc.Err()
}

// BenchmarkSSEDecode2000 decodes a 2,000-delta reply with the wire's
// reader and with the floor, alternately in the same run, and reports
// ratio = floor time / yui time (goal ≥ 0.8).
func BenchmarkSSEDecode2000(b *testing.B) {
	in := stream2000()
	want, _ := decodeFloor(in)
	var yui, floor time.Duration
	for b.Loop() {
		t0 := time.Now()
		n, err := decodeYui(in)
		t1 := time.Now()
		m, err2 := decodeFloor(in)
		t2 := time.Now()
		if err != nil || err2 != nil || n != want || m != want {
			b.Fatalf("decoded %d/%d of %d: %v %v", n, m, want, err, err2)
		}
		yui += t1.Sub(t0)
		floor += t2.Sub(t1)
	}
	b.ReportMetric(float64(yui.Nanoseconds())/float64(b.N), "yui-ns/reply")
	b.ReportMetric(float64(floor.Nanoseconds())/float64(b.N), "floor-ns/reply")
	b.ReportMetric(float64(floor)/float64(yui), "ratio")
}
