package responses_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"yui/transport/internal/wiretest"
)

// A gzip body that unpacks to 1 GiB (issue 23) ends the turn at the
// answer bound, as on Chat Completions (the engine counts what the wire
// reads, after decompression).
func TestAGzipBombEndsAtTheAnswerBound(t *testing.T) {
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	line := ": " + strings.Repeat("x", 1021) + "\n"
	for range 1024 {
		io.WriteString(zw, line)
	}
	zw.Close()
	e := newEnv(t, nil, nil, func(_ int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", "gzip")
		var first bytes.Buffer
		fz := gzip.NewWriter(&first)
		io.WriteString(fz, "data: "+text("Hello. ")+"\n\n")
		fz.Close()
		w.Write(first.Bytes())
		for range 1024 {
			if _, err := w.Write(member.Bytes()); err != nil {
				return
			}
		}
	})
	e.turn("1", "hi")
	wiretest.EqLines(t, e.rec.Got(), []string{"say Hello.", "error ", "end"})
}
