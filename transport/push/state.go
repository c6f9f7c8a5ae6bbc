package push

import "yui/transport"

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

// StateChange reports one transition of the connection state
// ([transport.StateChange]). Err says why the client left the previous
// state when that was not the caller's doing: ErrNotConfigured,
// ErrUnauthorized, or the socket's close or dial error; nil on a ready and
// on transitions the caller asked for. Code is the websocket close code the
// socket closed with, or -1 when there was none (dial failure, a connection
// drop, a local close). The ready socket's max_turn_bytes is
// [Client.MaxTurnBytes].
type StateChange = transport.StateChange
