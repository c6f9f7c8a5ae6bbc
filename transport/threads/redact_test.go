package threads_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// echoKeyOnPost answers a message post with a 500 whose text echoes the
// bearer key (a proxy or runtime that prints the request it refused).
type echoKeyOnPost struct{ next http.RoundTripper }

func (e echoKeyOnPost) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/messages") {
		return e.next.RoundTrip(r)
	}
	body := `{"error":{"code":"upstream","message":"refused ` + strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ") + `"}}`
	return &http.Response{StatusCode: 500, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
}

// The runtime's error text reaches the screen (the failed turn's line) and
// the log with "(key)" where it echoed the key (issue 23).
func TestAnErrorAnswerEchoingTheKeyNeverShowsIt(t *testing.T) {
	e := newEnv(t, envOpts{hc: &http.Client{Transport: echoKeyOnPost{http.DefaultTransport}}})
	e.send("1", "hello")
	e.rec.waitLine(t, "1 end")
	if !e.rec.has("1 error HTTP 500 upstream: refused (key)") {
		t.Fatalf("lines %q, want the error with (key)", e.rec.all())
	}
	for _, l := range e.rec.all() {
		if strings.Contains(l, testKey) {
			t.Fatalf("the key reached the screen: %q", l)
		}
	}
	if strings.Contains(e.log.text(), testKey) {
		t.Fatalf("the key reached the log: %s", e.log.text())
	}
}
