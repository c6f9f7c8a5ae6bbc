package push

import "time"

// The numbers of the spec's limits table that concern the wire.
const (
	// ReconnectFirst is the delay before the first reconnect attempt, and the
	// value the schedule returns to after a ready.
	ReconnectFirst = 1 * time.Second
	// ReconnectCap is the largest reconnect delay.
	ReconnectCap = 30 * time.Second
	// HelloWait is how long the client waits for ready after sending hello.
	// The client also bounds the opening handshake (dial) by it.
	HelloWait = 10 * time.Second
	// TurnFrameWait is the per-turn frame wait, counted from the turn frame
	// and again from every frame carrying its turn_id.
	TurnFrameWait = 240 * time.Second

	// ToolAbandonAfter is how long after a tool_call's answer went out the
	// client still waits for a Run that ignored its cancelled context
	// before it abandons the Run (log line tool_run_abandoned) and starts
	// the next call. Not in the spec's table: a decision of this client.
	ToolAbandonAfter = 30 * time.Second

	// MaxQueuedToolCalls bounds the calls one socket holds queued behind
	// the running one; MaxPendingAnswers the immediate answers being
	// written at once. Decisions of this client (the spec's adapter never
	// queues: rule 2 of the adapter).
	MaxQueuedToolCalls = 64
	MaxPendingAnswers  = 64

	// MaxFrameBytes caps every text frame in either direction except a turn
	// frame and a tool_result frame carrying images.
	MaxFrameBytes = 256 << 10

	// MaxDelegationTitle and MaxDelegationSummary are in Unicode code points.
	MaxDelegationTitle   = 120
	MaxDelegationSummary = 2000
	// MaxDelegationItems caps the items of one delegations frame.
	MaxDelegationItems = 50
)

// Accepts is what this client lists in hello.accepts.
var Accepts = []string{TypeError}

// BaseSet is the set of frame types every client reads; a backend sends
// nothing outside it and the client's accepts.
var BaseSet = []string{TypeReady, TypeRender, TypeSpeech, TypeTurnEnd, TypeToolStatus, TypeToolCall, TypeReasoning, TypeDelegations}
