package inputrules

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
)

// MaxBody bounds the body Handler reads.
const MaxBody = 64 << 20

// readBody reads r's body (at most MaxBody) and leaves it readable again.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	if len(b) > MaxBody {
		return nil, fmt.Errorf("body over %d bytes", MaxBody)
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b, nil
}
