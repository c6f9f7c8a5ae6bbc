package wiretest

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
)

// GzipBomb answers with a gzip-encoded event stream: the event data first
// (one SSE event), then gzip members that unpack to 1 GiB of SSE comment
// lines (1 MB on the wire): only what is read counts, no event. Members
// concatenate, so the body unpacks to their concatenation; it stops when
// the client goes.
func GzipBomb(w http.ResponseWriter, first string) {
	var m bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&m, gzip.BestCompression)
	line := ": " + strings.Repeat("x", 1021) + "\n"
	for range 1024 {
		io.WriteString(zw, line)
	}
	zw.Close()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Content-Encoding", "gzip")
	var head bytes.Buffer
	hz := gzip.NewWriter(&head)
	io.WriteString(hz, "data: "+first+"\n\n")
	hz.Close()
	w.Write(head.Bytes())
	for range 1024 { // 1 MiB unpacked each
		if _, err := w.Write(m.Bytes()); err != nil {
			return
		}
	}
}
