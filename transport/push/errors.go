package push

import (
	"errors"
	"fmt"

	"yui/transport"
)

var (
	// ErrNotReady: the socket is not ready, so the frame was not sent. For a
	// turn this is the spec's network failure.
	ErrNotReady = wrapped("push: socket not ready", transport.ErrNotReady)
	// ErrOversize: the encoded frame is over its size limit and was not sent.
	ErrOversize = wrapped("push: frame over size limit", transport.ErrOversize)
	// ErrImagesNotAccepted: a turn carried images but the backend's ready
	// stated no max_turn_bytes.
	ErrImagesNotAccepted = wrapped("push: backend accepts no images", transport.ErrImagesNotAccepted)
	// ErrNotConfigured: the endpoint is blank; no attempt is made.
	ErrNotConfigured = wrapped("push: endpoint not configured", transport.ErrNotConfigured)
	// ErrUnauthorized: the backend closed the socket with 4401.
	ErrUnauthorized = wrapped("push: backend refused the key (4401)", transport.ErrUnauthorized)
	// ErrClosed: the client was closed.
	ErrClosed = wrapped("push: client closed", transport.ErrClosed)
	// ErrReadyTimeout: no ready arrived within HelloWait of the hello.
	ErrReadyTimeout = errors.New("push: no ready within the hello wait")
)

// OversizeError is returned (wrapping ErrOversize) for a frame over its limit.
type OversizeError struct {
	FrameType string
	Size      int
	Limit     int
}

func (e *OversizeError) Error() string {
	return fmt.Sprintf("push: %s frame of %d bytes is over its limit of %d bytes", e.FrameType, e.Size, e.Limit)
}

func (e *OversizeError) Unwrap() error { return ErrOversize }

// pushError is a push error that also matches the transport-neutral one.
type pushError struct {
	msg  string
	base error
}

func (e *pushError) Error() string { return e.msg }
func (e *pushError) Unwrap() error { return e.base }

func wrapped(msg string, base error) error { return &pushError{msg: msg, base: base} }
