package conncause_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/conncause"
	"yui/transport"
	"yui/transport/push"
)

// roundTrip answers every request itself.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestNotAPushServerSaysSoAndBacksOffToTheCap: a push character pointed at
// a server that answers the upgrade with a web page's 404 retries on the
// spec's schedule — 1 s doubling to the 30 s cap, then every 30 s — and
// the plate says what it is from the first attempt on.
func TestNotAPushServerSaysSoAndBacksOffToTheCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hc := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{"Content-Type": {"text/html"}},
				Body: io.NopCloser(strings.NewReader("<html><title>Not Found</title></html>")), Request: r}, nil
		})}
		var mu sync.Mutex
		var lines []string
		var statuses []int
		c, err := push.New(push.Config{Endpoint: func() string { return "http://web.test:8080" }, ChatID: "yui-00000000", HTTPClient: hc,
			Handler: transport.HandlerFuncs{State: func(sc transport.StateChange) {
				if sc.To != transport.StateReconnecting {
					return
				}
				var up *transport.UpgradeStatusError
				if !errors.As(sc.Err, &up) {
					t.Errorf("state %+v: no upgrade status", sc)
					return
				}
				cause := conncause.Explain(sc.Err, "http://web.test:8080")
				every := time.Duration(0)
				if sc.RetryIn >= push.ReconnectCap {
					every = sc.RetryIn
				}
				mu.Lock()
				lines = append(lines, conncause.Retrying(cause, sc.RetryIn, every))
				statuses = append(statuses, up.Status)
				mu.Unlock()
			}}})
		if err != nil {
			t.Fatal(err)
		}
		c.Start()
		time.Sleep(100 * time.Second) // attempts at 0, 1, 3, 7, 15, 31, 61 and 91 s
		synctest.Wait()
		c.Close()
		mu.Lock()
		defer mu.Unlock()
		want := []string{
			"not a push server (HTTP 404) — retrying in 1 s",
			"not a push server (HTTP 404) — retrying in 2 s",
			"not a push server (HTTP 404) — retrying in 4 s",
			"not a push server (HTTP 404) — retrying in 8 s",
			"not a push server (HTTP 404) — retrying in 16 s",
			"not a push server (HTTP 404) — retrying every 30 s",
			"not a push server (HTTP 404) — retrying every 30 s",
			"not a push server (HTTP 404) — retrying every 30 s",
		}
		if strings.Join(lines, "\n") != strings.Join(want, "\n") {
			t.Fatalf("plate lines:\n  %s\nwant\n  %s", strings.Join(lines, "\n  "), strings.Join(want, "\n  "))
		}
		for _, s := range statuses {
			if s != 404 {
				t.Fatalf("statuses %v", statuses)
			}
		}
	})
}

// Retrying for other causes is the countdown it always was.
func TestRetryingLines(t *testing.T) {
	refused := conncause.Cause{Kind: conncause.Refused, Text: "Can't reach …"}
	notPush := conncause.Cause{Kind: conncause.NotPush, Status: 200}
	for _, c := range []struct {
		cause       conncause.Cause
		left, every time.Duration
		want        string
	}{
		{refused, 1500 * time.Millisecond, 0, "reconnecting in 2 s"},
		{refused, 30 * time.Second, 30 * time.Second, "reconnecting in 30 s"},
		{refused, 0, 0, "reconnecting…"},
		{conncause.Cause{}, 4 * time.Second, 0, "reconnecting in 4 s"},
		{notPush, 3 * time.Second, 0, "not a push server (HTTP 200) — retrying in 3 s"},
		{notPush, -time.Second, 0, "not a push server (HTTP 200) — retrying now"},
		{notPush, 12 * time.Second, 30 * time.Second, "not a push server (HTTP 200) — retrying every 30 s"},
	} {
		if got := conncause.Retrying(c.cause, c.left, c.every); got != c.want {
			t.Errorf("Retrying(%v, %v, %v) = %q, want %q", c.cause.Kind, c.left, c.every, got, c.want)
		}
	}
}
