// Package request is what the two request transports (Chat Completions
// and Responses) share: the turn engine that implements transport.Transport
// around a [Wire] (one streamed HTTP request per round, client tools run
// between rounds, at most MaxRoundTrips per turn), the HTTP rules (the key
// only to the base URL, no redirects, no proxy or other environment
// variable, an Idempotency-Key on every POST), the error texts of the
// spec's table, the idle limits, the incremental sentence cut, the cue tool
// and the persisted conversation.
//
// # Concurrency
//
// The Engine's methods are safe for concurrent use. Each turn runs on its
// own goroutine; handler calls go through one queue, in order.
package request
