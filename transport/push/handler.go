package push

import (
	"yui/transport"
	"yui/transport/internal/callqueue"
)

// Handler receives what the client reads and what happens to the
// connection. The client calls it from one goroutine, one call at a time, in
// event order, and a call may call any Client method except Close. A call
// may take as long as it likes: events queue behind it, but at most
// MaxPendingFrames frames — past that the client stops reading the socket
// until the Handler catches up (its timers, sends and tool calls go on).
type Handler interface {
	// HandleFrame receives every readable inbound frame of a ready socket
	// except ready (see HandleState) and tool_call (the client's tool runner
	// answers those): Render, Speech, TurnEnd, ErrorFrame, ToolStatus,
	// Reasoning and Delegations values.
	HandleFrame(f Frame)
	// HandleState receives every state transition.
	HandleState(c StateChange)
	// HandleTurnWait receives the end of a turn's frame wait: the wait
	// passed, or the socket left ready while the turn was running. Each turn
	// sent with SendTurn gets at most one such call, and none when SendTurn
	// returned an error, when its turn_end arrived first, or after ForgetTurn.
	HandleTurnWait(w TurnWaitEnded)
}

// ToolObserver is an optional interface of a Handler: a Handler that
// implements it hears of every tool_call the client answers (with any
// answer: a result, an error at once, "error: turn stopped", a timeout)
// when the call is accepted, and of every tool_result frame the client
// wrote, exactly as sent (a fitted or "error: result too large" result
// included). A tool_call dropped unanswered (unreadable, or a repeated
// id) is not reported; a result that could not be written is not reported.
// The calls come on the Handler's goroutine, in order with its other calls.
type ToolObserver interface {
	HandleToolCall(call ToolCall)
	HandleToolResult(res ToolResult)
}

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

// HandlerFuncs adapts optional functions to [Handler]; nil fields ignore
// their events.
type HandlerFuncs struct {
	Frame      func(Frame)
	State      func(StateChange)
	TurnWait   func(TurnWaitEnded)
	ToolCall   func(ToolCall)
	ToolResult func(ToolResult)
}

func (h HandlerFuncs) HandleToolCall(c ToolCall) {
	if h.ToolCall != nil {
		h.ToolCall(c)
	}
}

func (h HandlerFuncs) HandleToolResult(r ToolResult) {
	if h.ToolResult != nil {
		h.ToolResult(r)
	}
}

func (h HandlerFuncs) HandleFrame(f Frame) {
	if h.Frame != nil {
		h.Frame(f)
	}
}

func (h HandlerFuncs) HandleState(c StateChange) {
	if h.State != nil {
		h.State(c)
	}
}

func (h HandlerFuncs) HandleTurnWait(w TurnWaitEnded) {
	if h.TurnWait != nil {
		h.TurnWait(w)
	}
}

// MaxPendingFrames bounds the frames read from the socket and not yet
// handed to the Handler: past it the read loop stops reading until the
// Handler catches up, so a backend that sends faster than the Handler
// takes frames fills the socket's buffers, not the client's memory. The
// queue is transport/internal/callqueue, the one the other wires use.
const MaxPendingFrames = callqueue.MaxPending
