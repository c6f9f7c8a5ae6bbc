// Package transcript keeps a character's conversation as the user reads it
// in the message window: their lines, her replies (with the reasoning
// folded at their top), tool and delegation events as small rows, and
// errors. Its store is her history database (app/history): every row of
// every conversation is kept there; the transcript is the current
// conversation, and New conversation (Clear) starts the next one. Changes
// are committed in transactions (pending.go: grouped, SyncDelay at most;
// the user's line, the exchange and New conversation at once, on the
// disk). It is also the History a request transport sends
// (transport.History): one store for what is shown and what is sent.
// An older Yui's transcript file (snapshot and journal) is imported once
// (legacy.go) and kept as .bak.
//
// A Store is safe for concurrent use. docs/message-window.md and
// docs/history.md describe the store and the bounds.
package transcript
