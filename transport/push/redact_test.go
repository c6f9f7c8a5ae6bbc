package push_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"
)

func TestRedactURLDropsUserInfoQueryAndFragment(t *testing.T) {
	for in, want := range map[string]string{
		"wss://me:pw@host:8646/ws?key=sekrit#frag": "wss://host:8646/ws",
		"https://host/base/?token=abc":             "https://host/base/",
		"ws://127.0.0.1:1/ws":                      "ws://127.0.0.1:1/ws",
		"http://[::1":                              "(unreadable URL)",
	} {
		if got := push.RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// A chat_base_url carrying a token in its query or user info never shows
// it in a log line or in the state change's error.
func TestURLSecretsStayOutOfLogsAndErrors(t *testing.T) {
	bubble(t, func(t *testing.T) {
		logs, rec := &logRecorder{}, &recorder{}
		c, err := push.New(push.Config{
			Endpoint: func() string { return "http://alice:pa55word@backend.test:8646/?token=qu3ry-secret" },
			ChatID:   testChatID,
			Handler:  rec,
			Logger:   newLogger(logs),
			HTTPClient: &http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) {
				return nil, errors.New("connection refused")
			})},
		})
		if err != nil {
			t.Fatal(err)
		}
		c.Start()
		synctest.Wait()
		c.Close()
		var all strings.Builder
		all.WriteString(logs.Dump())
		for _, s := range rec.States() {
			if s.Err != nil {
				all.WriteString(s.Err.Error() + "\n")
			}
		}
		text := all.String()
		if !strings.Contains(text, push.EventOpenFailed) || !strings.Contains(text, "backend.test:8646") {
			t.Fatalf("no open failure naming the host:\n%s", text)
		}
		for _, secret := range []string{"qu3ry-secret", "pa55word", "alice"} {
			if strings.Contains(text, secret) {
				t.Fatalf("%q reached a log line or error:\n%s", secret, text)
			}
		}
	})
}

// A backend's error frame that echoes the key (issue 23) reaches the
// screen and the log with "(key)" in its place.
func TestAnErrorFrameEchoingTheKeyNeverShowsIt(t *testing.T) {
	const key = "push-key-0123456789abcdef"
	var srv *pushserver.Server
	srv = pushserver.New(pushserver.Config{Key: key, Hooks: pushserver.Hooks{
		Turn: func(chat string, tu push.Turn) {
			go func() {
				srv.SendError(chat, tu.TurnID, "provider refused key "+key)
				srv.SendTurnEnd(chat, tu.TurnID, nil)
			}()
		},
	}})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Close() })
	tr, err := push.NewTransport(push.Config{Endpoint: func() string { return hs.URL }, Key: func() string { return key }, ChatID: testChatID})
	if err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{}, 1)
	msgs := make(chan string, 4)
	tr.Start(transport.HandlerFuncs{
		State: func(c transport.StateChange) {
			if c.To == transport.StateReady {
				ready <- struct{}{}
			}
		},
		Event: func(e transport.Event) {
			if te, ok := e.(transport.TurnError); ok {
				msgs <- te.Message
			}
		},
	})
	t.Cleanup(func() { tr.Close() })
	select {
	case <-ready:
	case <-time.After(hangLimit):
		t.Fatal("not ready")
	}
	if err := tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-msgs:
		if m != "provider refused key (key)" {
			t.Fatalf("error message %q, want the key cut out", m)
		}
	case <-time.After(hangLimit):
		t.Fatal("no error frame")
	}
}
