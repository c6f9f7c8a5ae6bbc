package request

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// NewHTTPClient is the request transports' default client: no proxy (no
// environment variable is read), no redirects followed (the key stays with
// the base URL), keep-alive on.
func NewHTTPClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                 nil,
			DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          8,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ExpectContinueTimeout: time.Second,
		},
		CheckRedirect: noRedirects,
	}
}

// guarded returns hc (or the default client) with redirects refused, so
// the Authorization header never follows one.
func guarded(hc *http.Client) *http.Client {
	if hc == nil {
		return NewHTTPClient()
	}
	c := *hc
	c.CheckRedirect = noRedirects
	return &c
}

func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// JoinURL appends path to the base URL ("https://api.openai.com/v1" +
// "/chat/completions"). The base must be http or https with a host.
func JoinURL(base, path string) (string, error) {
	base = strings.TrimSpace(base)
	if base == "" {
		return "", ErrNoBase
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("base URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("base URL %q: must be http(s) with a host", u.Redacted())
	}
	u.User = nil
	u.Fragment = ""
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawPath = ""
	return u.String(), nil
}

// ErrNoBase: the preset has no base URL.
var ErrNoBase = errors.New("no base URL")

// newRequest builds a request to base+path carrying the key (when set) as a
// bearer token. A POST gets a fresh Idempotency-Key, which lets Go's
// transport retry it on a pooled connection the server had closed.
func newRequest(ctx context.Context, method, base, path, key string, body []byte) (*http.Request, error) {
	u, err := JoinURL(base, path)
	if err != nil {
		return nil, err
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
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

// StatusError is an HTTP error answer: its status and the server's text.
type StatusError struct {
	Status     int
	Text       string // one line; "" when the body said nothing readable
	RetryAfter string // the Retry-After header of a 429, as sent
}

func (e *StatusError) Error() string {
	if e.Text == "" {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Text)
}

// maxErrorBody bounds what is read of an error answer.
const maxErrorBody = 64 << 10

// readStatusError reads an error answer: {"error":"text"},
// {"error":{"message":…}}, {"message":…}, or plain text; an HTML page
// (a proxy's) is cut to its title or a short plain excerpt, never markup.
func readStatusError(resp *http.Response) *StatusError {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e := &StatusError{Status: resp.StatusCode, Text: ErrorText(b, resp.Header.Get("Content-Type"))}
	if resp.StatusCode == http.StatusTooManyRequests {
		e.RetryAfter = strings.TrimSpace(resp.Header.Get("Retry-After"))
	}
	return e
}

// ErrorText is the server's text in an error body, one line of at most
// 300 characters.
func ErrorText(b []byte, contentType string) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	if json.Unmarshal(b, &v) == nil {
		if t := errorFieldText(v.Error); t != "" {
			return oneLine(t, 300)
		}
		if v.Message != "" {
			return oneLine(v.Message, 300)
		}
		if v.Detail != "" {
			return oneLine(v.Detail, 300)
		}
	}
	s := string(b)
	if strings.Contains(contentType, "html") || looksLikeHTML(s) {
		return oneLine(htmlText(s), 120)
	}
	return oneLine(s, 300)
}

// errorFieldText reads an error field: a string, or an object with message.
func errorFieldText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &o) == nil {
		return o.Message
	}
	return ""
}

func looksLikeHTML(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	return strings.HasPrefix(t, "<!doctype html") || strings.HasPrefix(t, "<html") || strings.Contains(t, "<body")
}

// htmlText is the title of an HTML page, or its text without tags.
func htmlText(s string) string {
	low := strings.ToLower(s)
	if i := strings.Index(low, "<title>"); i >= 0 {
		if j := strings.Index(low[i:], "</title>"); j > 0 {
			return s[i+len("<title>") : i+j]
		}
	}
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
			b.WriteByte(' ')
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// oneLine collapses whitespace and cuts to max code points.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

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
