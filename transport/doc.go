// Package transport is the contract between a pet window's session and the
// wire that carries its conversation, in the database/sql/driver pattern:
// one package per wire (transport/push, transport/chatcompletions,
// transport/responses, transport/threads) implements [Transport], and the session
// (app/session) talks to the interface only. transport/transporttest holds
// a function-field fake for session tests and Run, the conformance suite
// every wire passes.
//
// The types here are transport-neutral: a [Render] is what a push render
// frame carries and what a request transport builds from streamed deltas;
// a [StateChange] names an unauthorized key with [ErrUnauthorized] rather
// than a close code. What a wire cannot carry is stated by its
// [Capabilities] and by the spec's table "What each chat transport carries"
// (docs/transports.md).
//
// # Concurrency
//
// A Transport's methods are safe for concurrent use. It calls its
// [Handler] from one goroutine, one call at a time, in the order the events
// happened; a Handler may call any Transport method except Close.
package transport
