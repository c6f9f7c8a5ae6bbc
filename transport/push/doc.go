// Package push is the client side of the push chat transport
// (shared/spec/push-transport.txt): one WebSocket per pet window that
// carries turns to the backend and finished replies back.
//
// The package has three layers, each usable on its own:
//
//   - Typed frames and their codec (frame.go, decode.go, encode.go):
//     [DecodeInbound] reads a backend→client frame, [DecodeOutbound] reads a
//     client→backend frame (used by the server side in transport/pushserver),
//     [Encode] writes either direction.
//   - Pure rules from the spec: URL derivation ([WebSocketURL]), the reconnect
//     schedule ([Backoff]), the limits table (limits.go) and tool waits.
//   - The [Client]: connection state machine, hello/ready handshake,
//     reconnects, frame caps, per-turn frame waits, vocabulary resends and the
//     client's tool_call rules.
//
// # Concurrency
//
// Every exported method of [Client] is safe for concurrent use. The client
// calls its Handler (a [transport.Handler]) from a single goroutine, one call at a time, in the order
// the events happened (a state change to Ready comes before the frames read on
// that socket; a state change away from Ready comes after the last of them).
// A Handler may call any Client method except [Client.Close]. A Handler
// that falls MaxPendingFrames frames behind holds the socket's reading
// back (backpressure), so a fast backend cannot fill the client's memory.
//
// # Timers
//
// Every wait in the spec's limits table runs on the client's own timers
// (time.AfterFunc), never on a context passed to the websocket library: in
// github.com/coder/websocket a context expiring on a read or write closes the
// connection. The same reason makes the client read through Conn.Reader with
// the library's read limit disabled, counting bytes itself, so that an
// oversized inbound frame is discarded without closing the socket.
package push
