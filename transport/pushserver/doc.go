// Package pushserver is the backend side of the push transport
// (shared/spec/push-transport.txt): a real implementation of the backend's
// obligations, used by the push client's tests, by the embedded demo backend
// and by `yui probe`.
//
// A [Server] is an http.Handler serving the /ws socket. It checks hello
// (4401 on a wrong key or a missing chat_id, sending nothing), answers
// ready (with max_turn_bytes when configured), replaces an older socket of
// the same chat (4409), closes on an oversize inbound frame (1009), sends the
// current delegations list right after ready, holds render, turn_end and
// error frames for an absent client and replays them in order after the next
// ready, respects hello.accepts, and runs the backend adapter's tool_call
// rules 1–5 in [Server.CallTool].
//
// The agent side drives it through [Hooks] (inbound turn, stop, reset,
// playback, vocabulary, connect and disconnect per chat) and the Send
// methods. Hooks run on the connection's read goroutine, in frame order; a
// hook must not wait on the client (for instance call CallTool and wait for
// its answer), because the answer is read by that same goroutine — start the
// agent's work in its own goroutine instead.
package pushserver
