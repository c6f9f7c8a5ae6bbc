package transport

import (
	"errors"
	"strconv"
)

// The errors every wire's errors wrap, so the session needs no wire's.
var (
	// ErrNotReady: the link is not ready; the turn is a network failure.
	ErrNotReady = errors.New("transport: not ready")
	// ErrOversize: the turn is over the wire's size limit.
	ErrOversize = errors.New("transport: over the size limit")
	// ErrImagesNotAccepted: the turn carried images the backend does not take.
	ErrImagesNotAccepted = errors.New("transport: backend accepts no images")
	// ErrNotConfigured: the endpoint is blank.
	ErrNotConfigured = errors.New("transport: endpoint not configured")
	// ErrUnauthorized: the backend refused the key.
	ErrUnauthorized = errors.New("transport: backend refused the key")
	// ErrClosed: the transport was closed.
	ErrClosed = errors.New("transport: closed")
	// ErrNotSupported: the wire cannot carry this.
	ErrNotSupported = errors.New("transport: not carried by this wire")
)

func isErr(err, target error) bool { return err != nil && errors.Is(err, target) }

// UpgradeStatusError is a connection attempt the server answered with an
// HTTP status instead of switching protocols (push: not 101 on the
// WebSocket upgrade — a 404 usually means the server speaks another API).
// Err is the wire library's own error.
type UpgradeStatusError struct {
	Status int
	Err    error
}

func (e *UpgradeStatusError) Error() string {
	return "the server answered HTTP " + strconv.Itoa(e.Status) + " to the upgrade: " + e.Err.Error()
}

func (e *UpgradeStatusError) Unwrap() error { return e.Err }
