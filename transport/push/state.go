package push

import (
	"time"

	"yui/transport"
)

// State is the connection state of a [Client] ([transport.State]).
type State = transport.State

// The states; see transport.State for their meaning. StateFailed is the
// 4401 close.
const (
	StateDisconnected = transport.StateDisconnected
	StateConnecting   = transport.StateConnecting
	StateReady        = transport.StateReady
	StateReconnecting = transport.StateReconnecting
	StateFailed       = transport.StateFailed
)

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
