package dataurl

import (
	"encoding/base64"
	"errors"
	"strings"
)

// Errors of Split and Decode.
var (
	ErrNotDataURL = errors.New("not a data: URL")
	ErrNotBase64  = errors.New("not a base64 data: URL")
	ErrBadBase64  = errors.New("bad base64 in the data: URL")
)

// Prefix is what precedes the payload of a data URL of type mime.
func Prefix(mime string) string { return "data:" + mime + ";base64," }

// Encode renders data as a data:<mime>;base64 URL.
func Encode(mime string, data []byte) string {
	prefix := Prefix(mime)
	out := make([]byte, len(prefix)+base64.StdEncoding.EncodedLen(len(data)))
	copy(out, prefix)
	base64.StdEncoding.Encode(out[len(prefix):], data)
	return string(out)
}

// Len is the length of the data URL of type mime holding n bytes.
func Len(mime string, n int) int {
	return len(Prefix(mime)) + base64.StdEncoding.EncodedLen(n)
}

// Split reads data:<mime>;base64,<payload> without decoding the payload.
// The type is returned as written; callers that trust it check it (the
// app sniffs the bytes instead).
func Split(u string) (mime, payload string, err error) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return "", "", ErrNotDataURL
	}
	meta, payload, ok := strings.Cut(rest, ",")
	mime, isBase64 := strings.CutSuffix(meta, ";base64")
	if !ok || !isBase64 {
		return "", "", ErrNotBase64
	}
	return mime, payload, nil
}

// Decode returns the type and the bytes of a base64 data URL.
func Decode(u string) (mime string, data []byte, err error) {
	mime, payload, err := Split(u)
	if err != nil {
		return "", nil, err
	}
	data, err = base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return "", nil, ErrBadBase64
	}
	return mime, data, nil
}
