// Package callqueue runs a wire's handler calls on one goroutine, in the
// order they were queued, with a bound on the backend events waiting
// (issue 11: every buffer a backend can fill has a bound).
//
// Queuing never blocks, so a wire may queue under its own lock or from
// inside a handler call. The bound is applied by the goroutine that reads
// the backend (an SSE stream, a WebSocket): it waits for room before it
// reads on (PushEvent, WaitRoom), so a flood waits in the socket, not in
// memory. Every wire uses it: push (its frames), the request wires (Chat
// Completions, Responses) and the Standard Agents threads wire.
package callqueue
