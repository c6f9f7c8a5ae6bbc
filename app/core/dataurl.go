package core

import (
	"encoding/base64"
	"errors"
	"strings"
)

// decodeDataURL returns the bytes of a base64 data: URL. The declared type
// is not trusted; the session sniffs the bytes.
func decodeDataURL(u string) ([]byte, error) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return nil, errors.New("not a data: URL")
	}
	meta, data, ok := strings.Cut(rest, ",")
	if !ok || !strings.HasSuffix(meta, ";base64") {
		return nil, errors.New("not a base64 data: URL")
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, errors.New("bad base64 in the data: URL")
	}
	return b, nil
}
