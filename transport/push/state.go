package push

import "time"

// State is the connection state of a [Client], as the session shows it.
type State int

const (
	// StateDisconnected: no socket and no retry armed. The state before Start,
	// after Close, and while the endpoint is blank (not configured).
	StateDisconnected State = iota
	// StateConnecting: one attempt is in flight (dial, hello, waiting for ready).
	StateConnecting
	// StateReady: the backend answered hello with ready; frames may be sent.
	StateReady
	// StateReconnecting: the last socket closed or the last attempt failed and a
	// retry is armed.
	StateReconnecting
	// StateFailed: the backend closed with 4401. No retry is armed until the
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
	// Err says why the client left the previous state when that was not the
	// caller's doing: ErrNotConfigured, ErrUnauthorized, or the socket's
	// close or dial error. Nil on a ready and on transitions the caller asked for.
	Err error
	// CloseCode is the websocket close code the socket closed with, or -1
	// when there was none (dial failure, a connection drop, a local close).
	CloseCode int
	// RetryIn is the armed reconnect delay when To is StateReconnecting.
	RetryIn time.Duration
	// MaxTurnBytes is the max_turn_bytes the backend stated in ready (0 when
	// absent); set when To is StateReady.
	MaxTurnBytes int
}
