package push

import (
	"fmt"
	"net/url"
	"strings"

	"yui/transport"
)

// WebSocketURL derives the socket URL from chat_base_url: http becomes ws,
// https becomes wss (ws and wss are kept), the base path is kept with its
// trailing slashes collapsed, and /ws is appended. A query is kept; a
// fragment and user info are dropped. A blank endpoint returns
// ErrNotConfigured; anything else unusable returns a wrapped error.
func WebSocketURL(base string) (string, error) {
	base = strings.TrimSpace(base)
	if base == "" {
		return "", ErrNotConfigured
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("push: endpoint: %w", redactErr(err))
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "ws":
		u.Scheme = "ws"
	case "https", "wss":
		u.Scheme = "wss"
	default:
		return "", fmt.Errorf("push: endpoint %q: scheme must be http or https", redactURL(u))
	}
	if u.Host == "" {
		return "", fmt.Errorf("push: endpoint %q: no host", redactURL(u))
	}
	u.User = nil
	u.Fragment = ""
	u.RawFragment = ""
	p := strings.TrimRight(u.Path, "/")
	u.Path = p + "/ws"
	if u.RawPath != "" {
		u.RawPath = strings.TrimRight(u.RawPath, "/") + "/ws"
	}
	return u.String(), nil
}

// RedactURL is [transport.RedactURL]: a URL without user info, query or
// fragment, as logs and error texts show it.
func RedactURL(raw string) string { return transport.RedactURL(raw) }

func redactURL(u *url.URL) string { return transport.RedactURL(u.String()) }

// redactErr is [transport.RedactError].
func redactErr(err error) error { return transport.RedactError(err) }
