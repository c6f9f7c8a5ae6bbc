package httpapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"yui/transport"
)

// StatusError is an HTTP error answer: its status and the server's text.
type StatusError struct {
	Status     int
	Text       string // one line, the key cut out; "" when the body said nothing readable
	RetryAfter string // the Retry-After header of a 429, as sent
}

func (e *StatusError) Error() string {
	if e.Text == "" {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Text)
}

// MaxErrorBody bounds what is read of an error answer.
const MaxErrorBody = 64 << 10

// ReadError reads an error answer (at most MaxErrorBody of its body) into
// its status and text, with key cut out of the text.
func ReadError(resp *http.Response, key string) *StatusError {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, MaxErrorBody))
	e := &StatusError{Status: resp.StatusCode, Text: transport.RedactKey(ErrorText(b, resp.Header.Get("Content-Type")), key)}
	if resp.StatusCode == http.StatusTooManyRequests {
		e.RetryAfter = strings.TrimSpace(resp.Header.Get("Retry-After"))
	}
	return e
}

// ErrorText is the server's text in an error body, one line of at most
// 300 characters: {"error":"text"}, {"error":{"message":…}},
// {"message":…}, {"detail":…}, or plain text; an HTML page (a proxy's)
// is cut to its title or a short plain excerpt, never markup.
func ErrorText(b []byte, contentType string) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	if json.Unmarshal(b, &v) == nil {
		if t := errorFieldText(v.Error); t != "" {
			return OneLine(t, 300)
		}
		if v.Message != "" {
			return OneLine(v.Message, 300)
		}
		if v.Detail != "" {
			return OneLine(v.Detail, 300)
		}
	}
	s := string(b)
	if strings.Contains(contentType, "html") || LooksLikeHTML(s) {
		return OneLine(htmlText(s), 120)
	}
	return OneLine(s, 300)
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

// LooksLikeHTML: the text is an HTML page (a proxy's or a login page), not
// an API's answer.
func LooksLikeHTML(s string) bool {
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

// OneLine collapses whitespace and control characters and cuts to max
// code points.
func OneLine(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}
