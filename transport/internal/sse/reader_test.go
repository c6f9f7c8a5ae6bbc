package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func collect(t *testing.T, in string, max int) ([]string, error) {
	t.Helper()
	r := NewReader(strings.NewReader(in), max)
	var out []string
	for {
		e, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		out = append(out, string(e.Name)+"|"+string(e.Data))
	}
}

func TestEvents(t *testing.T) {
	in := ": comment\n" +
		"data: {\"a\":1}\n\n" +
		"event: response.output_text.delta\r\ndata: x\r\n\r\n" +
		"retry: 10\nid: 3\ndata:first\ndata: second\n\n" +
		"\n\n" +
		"event: ignored-without-data\n\n" +
		"data: [DONE]\n\n" +
		"data: unterminated"
	got, err := collect(t, in, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`|{"a":1}`, "response.output_text.delta|x", "|first\nsecond", "|[DONE]"}
	if strings.Join(got, ";") != strings.Join(want, ";") {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestLongLineIsRefused(t *testing.T) {
	in := "data: " + strings.Repeat("x", 10<<20) + "\n\n"
	_, err := collect(t, in, 1<<20)
	if !errors.Is(err, ErrTooLong) {
		t.Fatalf("err = %v", err)
	}
}

func TestLinesLongerThanTheBufferJoin(t *testing.T) {
	long := strings.Repeat("y", 100<<10)
	got, err := collect(t, "data: "+long+"\n\n", 0)
	if err != nil || len(got) != 1 || got[0] != "|"+long {
		t.Fatalf("got %d events, err %v", len(got), err)
	}
}
