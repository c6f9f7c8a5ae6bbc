package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// ErrNoBase: no base URL is set.
var ErrNoBase = errors.New("no base URL")

// JoinURL appends path to the base URL ("https://api.openai.com/v1" +
// "/chat/completions"). The base must be http or https with a host; its
// user info and fragment are dropped.
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

// NewRequest is a request to u carrying key (when set) as a bearer token.
func NewRequest(ctx context.Context, method, u, key string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return nil, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	return req, nil
}
