package transport

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// RedactURL is a URL as logs and error texts show it: without user info,
// query or fragment, where a token may hide. Every wire logs and reports
// its URLs this way.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unreadable URL)"
	}
	c := *u
	c.User = nil
	c.RawQuery, c.ForceQuery = "", false
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}

// RedactError removes the query and user info from the URL an HTTP error
// (*url.Error) names, wherever its text shows in err's message, so the
// error can be logged and shown. errors.Is and As still see the original.
// Other errors are returned as they are.
func RedactError(err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) || ue.URL == "" {
		return err
	}
	raw, clean := ue.URL, RedactURL(ue.URL)
	if raw == clean {
		return err
	}
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

// RedactKey cuts a secret out of a text a server or a library made, so it
// can be logged and shown: every occurrence of key (as entered, and
// trimmed) becomes "(key)". Every HTTP client Yui has runs the server's
// error text through it (a server may echo the key it refused).
func RedactKey(s, key string) string {
	for _, k := range []string{key, strings.TrimSpace(key)} {
		if k != "" {
			s = strings.ReplaceAll(s, k, "(key)")
		}
	}
	return s
}

// RedactKeyError is err with key cut out of its text (RedactKey); errors.Is
// and As still see the original. An error whose text does not hold the key
// is returned as it is.
func RedactKeyError(err error, key string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	clean := RedactKey(msg, key)
	if clean == msg {
		return err
	}
	return &redactedError{msg: clean, err: err}
}
