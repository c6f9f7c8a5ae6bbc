package request

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"yui/transport/httpapi"
)

// guarded returns hc (or httpapi's default client: the environment's
// proxy but never for loopback, keep-alive on) with redirects refused, so
// the Authorization header never follows one.
func guarded(hc *http.Client) *http.Client { return httpapi.Guard(hc) }

// newRequest builds a request to base+path carrying the key (when set) as a
// bearer token. A POST gets a fresh Idempotency-Key, which lets Go's
// transport retry it on a pooled connection the server had closed.
func newRequest(ctx context.Context, method, base, path, key string, body []byte) (*http.Request, error) {
	u, err := httpapi.JoinURL(base, path)
	if err != nil {
		return nil, err
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := httpapi.NewRequest(ctx, method, u, key, rd)
	if err != nil {
		return nil, err
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Idempotency-Key", newIdempotencyKey())
	}
	return req, nil
}

func newIdempotencyKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return "yui-" + hex.EncodeToString(b)
}

// StatusError is an HTTP error answer: its status and the server's text
// (the key cut out).
type StatusError = httpapi.StatusError

// RetryAfterText renders a Retry-After value for the rate-limit line.
func RetryAfterText(v string) string {
	if v == "" {
		return ""
	}
	if n, err := strconv.Atoi(v); err == nil {
		return fmt.Sprintf("retry after %d s", n)
	}
	return "retry after " + v
}
