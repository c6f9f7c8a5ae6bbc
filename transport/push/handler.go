package push

import (
	"yui/transport"
	"yui/transport/internal/callqueue"
)

// WaitEndReason says why a turn's frame wait ended ([transport.WaitEndReason]).
type WaitEndReason = transport.WaitEndReason

const (
	// WaitPassed: TurnFrameWait passed with no frame of the turn.
	WaitPassed = transport.WaitPassed
	// SocketLeftReady: the socket left ready while the turn was running.
	SocketLeftReady = transport.SocketLeftReady
)

// TurnWaitEnded reports a turn that ended without its turn_end
// ([transport.TurnWaitEnded]). Rendered says whether a render or speech
// frame of the turn had arrived (the spec's "after the first render": the
// turn counts as delivered). The turn stays outstanding for the session; a
// late render still plays.
type TurnWaitEnded = transport.TurnWaitEnded

// MaxPendingFrames bounds the frames read from the socket and not yet
// handed to the Handler: past it the read loop stops reading until the
// Handler catches up, so a backend that sends faster than the Handler
// takes frames fills the socket's buffers, not the client's memory. The
// queue is transport/internal/callqueue, the one the other wires use.
const MaxPendingFrames = callqueue.MaxPending
