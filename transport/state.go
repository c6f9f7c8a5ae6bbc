package transport

import "time"

// State is the link's connection state, as the session shows it.
type State int

const (
	// StateDisconnected: no connection and no retry armed (before Start,
	// after Close, while not configured).
	StateDisconnected State = iota
	// StateConnecting: an attempt is in flight.
	StateConnecting
	// StateReady: turns may be sent. A request transport is ready while it
	// has a base URL.
	StateReady
	// StateReconnecting: the last attempt failed and a retry is armed.
	StateReconnecting
	// StateFailed: the backend refused the key; no retry until the
	// settings change or the user asks for a reconnect.
	StateFailed
)

func (s State) String() string {
	switch s {
	case StateDisconnected:
		return "disconnected"
	case StateConnecting:
		return "connecting"
	case StateReady:
		return "ready"
	case StateReconnecting:
		return "reconnecting"
	case StateFailed:
		return "failed"
	}
	return "unknown"
}

// StateChange reports one transition of the connection state.
type StateChange struct {
	From, To State
	// Err says why the link left the previous state when that was not the
	// caller's doing. errors.Is(Err, ErrUnauthorized) is the typed "the
	// backend refused the key"; ErrNotConfigured is a blank endpoint.
	Err error
	// Code is the wire's own close code, for logs and the console only
	// (-1 when none); the session decides nothing on it.
	Code int
	// RetryIn is the armed reconnect delay when To is StateReconnecting.
	RetryIn time.Duration
}

// Unauthorized reports whether the change says the key was refused.
func (c StateChange) Unauthorized() bool { return isErr(c.Err, ErrUnauthorized) }

// WaitEndReason says why a turn's wait ended.
type WaitEndReason int

const (
	// WaitPassed: the wait (push frame wait, request idle limit) passed.
	WaitPassed WaitEndReason = iota + 1
	// SocketLeftReady: the link was lost while the turn was running (a
	// push socket left ready; a request could not reach the backend or
	// was cut).
	SocketLeftReady
)

// TurnWaitEnded reports a turn that ended without its reply. Rendered says
// whether a render or speech of the turn had arrived (the turn counts as
// delivered).
type TurnWaitEnded struct {
	TurnID   string
	Rendered bool
	Reason   WaitEndReason
}
