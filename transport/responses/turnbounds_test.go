package responses_test

import (
	"net/http"
	"testing"

	"yui/transport/internal/wiretest"
)

// A gzip body that unpacks to 1 GiB (issue 23) ends the turn at the
// answer bound, as on Chat Completions (the engine counts what the wire
// reads, after decompression).
func TestAGzipBombEndsAtTheAnswerBound(t *testing.T) {
	e := newEnv(t, nil, nil, func(_ int, w http.ResponseWriter, r *http.Request) {
		wiretest.GzipBomb(w, text("Hello. "))
	})
	e.turn("1", "hi")
	wiretest.EqLines(t, e.rec.Got(), []string{"say Hello.", "error ", "end"})
}
