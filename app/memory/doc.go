// Package memory is what a character on a request wire (Chat Completions,
// Responses) remembers beyond her context window (docs/memory.md): a
// running summary of the conversation's oldest part, written by the same
// model when the transcript no longer fits, and a few facts about the
// user, written through the client tools remember and forget.
//
// A Store is one character's memory in its own file (memory-<id>.json in
// the config directory, atomic, 0600). It implements transport.Memory for
// her request transport only: no other character's backend reads it. The
// user sees and edits both parts in settings ("What she remembers"); a new
// conversation keeps them unless the user clears them too.
//
// Bounds: the summary is at most MaxSummaryBytes; there are at most
// MaxFacts facts of at most MaxFactBytes each. A fact over its bound is
// refused with a clear error, never cut silently.
package memory
