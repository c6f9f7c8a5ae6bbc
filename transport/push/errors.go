package push

import (
	"errors"
	"fmt"
)

var (
	// ErrNotReady: the socket is not ready, so the frame was not sent. For a
	// turn this is the spec's network failure.
	ErrNotReady = errors.New("push: socket not ready")
	// ErrOversize: the encoded frame is over its size limit and was not sent.
	ErrOversize = errors.New("push: frame over size limit")
	// ErrImagesNotAccepted: a turn carried images but the backend's ready
	// stated no max_turn_bytes.
	ErrImagesNotAccepted = errors.New("push: backend accepts no images")
	// ErrNotConfigured: the endpoint is blank; no attempt is made.
	ErrNotConfigured = errors.New("push: endpoint not configured")
	// ErrUnauthorized: the backend closed the socket with 4401.
	ErrUnauthorized = errors.New("push: backend refused the key (4401)")
	// ErrClosed: the client was closed.
	ErrClosed = errors.New("push: client closed")
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
