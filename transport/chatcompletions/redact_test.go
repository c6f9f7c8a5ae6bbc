package chatcompletions_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"yui/transport/chatcompletions"
)

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// A server whose error answer echoes the key (issue 23): the error line on
// screen (a 500 shows the server's text) and the log carry "(key)", never
// the key — as the speech and transcription clients already did.
func TestAnErrorAnswerEchoingTheKeyNeverShowsIt(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	var logs syncBuf
	e := newEnv(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"upstream refused `+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")+` for model m-1"}}`, 500)
	}, chatcompletions.Config{Key: func() string { return key }, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	e.turn("1", "hello")
	e.rec.WaitEnd(t, "1")
	got := strings.Join(e.rec.Got(), "\n")
	if !strings.Contains(got, "error HTTP 500: upstream refused (key) for model m-1") {
		t.Fatalf("error line %q, want the server's text with (key)", got)
	}
	if strings.Contains(got, key) || strings.Contains(logs.String(), key) {
		t.Fatalf("the key reached the screen or the log:\n%s\n%s", got, logs.String())
	}
	if !strings.Contains(logs.String(), "(key)") {
		t.Fatalf("the failure is not logged: %s", logs.String())
	}
}
