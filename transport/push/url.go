package push

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
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

// RedactURL is a URL as logs and error texts show it: without user info,
// query or fragment, where a token may hide.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unreadable URL)"
	}
	return redactURL(u)
}

func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery, c.ForceQuery = "", false
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}

// redactErr removes the query and user info from the URL an HTTP error
// (*url.Error) names, wherever its text shows in err's message, so the
// error can be logged and shown. errors.Is and As still see the original.
func redactErr(err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) || ue.URL == "" {
		return err
	}
	raw, clean := ue.URL, RedactURL(ue.URL)
	msg := strings.ReplaceAll(err.Error(), raw, clean)
	// url.Error prints an escaped form of some URLs; cover it too.
	msg = strings.ReplaceAll(msg, fmt.Sprintf("%q", raw), fmt.Sprintf("%q", clean))
	return &redactedError{msg: msg, err: err}
}

// redactedError is an error whose text had a URL's secrets removed.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
