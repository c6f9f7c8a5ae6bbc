package threads

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"yui/transport"
	"yui/transport/httpapi"
)

// The runtime's error answers, read into an APIError.

// APIError is an HTTP error answer of the runtime: the status and, when the
// body said, its code and message ({"error":{"code","message"}} or
// {"error":"text"}).
type APIError struct {
	Status  int
	Code    string
	Message string
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("HTTP %d", e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Refused reports a key the runtime refused (401 or 403).
func (e *APIError) Refused() bool {
	return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
}

// IsRefused reports whether err is an answer refusing the key.
func IsRefused(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Refused()
}

// IsNotFound reports whether err is a 404 answer.
func IsNotFound(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Status == http.StatusNotFound
}

// readAPIError reads an error answer's body (bounded), with key cut out of
// its code and message (a runtime may echo the key it refused).
func readAPIError(resp *http.Response, key string) *APIError {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e := &APIError{Status: resp.StatusCode}
	e.Code, e.Message = errorBody(b)
	e.Code, e.Message = transport.RedactKey(e.Code, key), transport.RedactKey(e.Message, key)
	return e
}

// errorBody reads {"error":{"code","message"}}, {"error":"text"}, or plain
// text, as one line of at most 300 code points.
func errorBody(b []byte) (code, msg string) {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(b, &v) == nil {
		var s string
		var o struct {
			Code    json.RawMessage `json:"code"`
			Message string          `json:"message"`
		}
		switch {
		case len(v.Error) > 0 && json.Unmarshal(v.Error, &s) == nil:
			return "", httpapi.OneLine(s, 300)
		case len(v.Error) > 0 && json.Unmarshal(v.Error, &o) == nil:
			var cs string
			if json.Unmarshal(o.Code, &cs) != nil && len(o.Code) > 0 {
				cs = string(o.Code)
			}
			return httpapi.OneLine(cs, 60), httpapi.OneLine(o.Message, 300)
		case v.Message != "":
			return "", httpapi.OneLine(v.Message, 300)
		}
	}
	if httpapi.LooksLikeHTML(string(b[:min(len(b), 512)])) {
		return "", ""
	}
	return "", httpapi.OneLine(string(b), 300)
}
