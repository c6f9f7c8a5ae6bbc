// Package threadserver is a small Standard Agents thread runtime: the HTTP
// API around the stream (auth check, tickets, agents, threads, messages,
// stop, delete) and the thread message stream, with an agent written in Go
// (an [Agent] func) in place of a model. It speaks either generation of
// runtime (shared/spec/thread-stream.txt, and the deployed runtime 0.41.12
// of shared/spec/threads-api.md) as its [Behaviour] says: with or without
// thread_status, full or partial message_data records, events with
// "data": null or without data, refused upgrades answered with a body or
// dropped, deleted threads closed at once or late.
//
// The threads transport's tests run against it, and the demo backend
// mounts it so the demo character can be set up as a Standard Agents
// character.
//
// # Contracts
//
//   - [New] returns a [Server], an http.Handler for the routes under /api.
//     Messages of a thread run one at a time, in the order they were
//     posted; a message posted while a run goes is queued.
//   - Every socket has its own bounded send queue: a socket that does not
//     keep up is closed, never waited for. Bodies are bounded.
//   - [Server.Close] ends every run and socket and returns when none of
//     the Server's goroutines is left.
//   - Safe for concurrent use.
package threadserver
