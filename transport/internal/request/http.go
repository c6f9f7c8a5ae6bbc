package request

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"yui/transport"
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

// post sends one round and returns the open stream, or an error: a
// *StatusError for an HTTP error answer.
func (e *Engine) post(ctx context.Context, base string, body []byte) (io.ReadCloser, error) {
	req, err := newRequest(ctx, http.MethodPost, base, e.wire.Path(), e.cfg.Key(), body)
	if err != nil {
		return nil, err
	}
	resp, err := e.hc.Do(req)
	if err != nil {
		return nil, transport.RedactError(err)
	}
	if resp.StatusCode/100 != 2 {
		se := httpapi.ReadError(resp, e.cfg.Key())
		resp.Body.Close()
		return nil, se
	}
	return resp.Body, nil
}

// ListModels is GET {base}/models: the model ids the server lists. Errors:
// *StatusError for an HTTP error answer (401/403: the key), the network's
// otherwise.
func ListModels(ctx context.Context, hc *http.Client, base, key string) ([]string, error) {
	req, err := newRequest(ctx, http.MethodGet, base, "/models", key, nil)
	if err != nil {
		return nil, err
	}
	resp, err := guarded(hc).Do(req)
	if err != nil {
		return nil, transport.RedactError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, httpapi.ReadError(resp, key)
	}
	var v struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(&v); err != nil {
		return nil, fmt.Errorf("models list unreadable: %w", err)
	}
	var ids []string
	for _, m := range v.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		for _, m := range v.Models {
			if n := m.Model; n != "" {
				ids = append(ids, n)
			} else if m.Name != "" {
				ids = append(ids, m.Name)
			}
		}
	}
	return ids, nil
}
