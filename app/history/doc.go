// Package history keeps one character's history in a SQLite database in
// the config directory (history-<id>.db, WAL, mode 0600, through the
// pure-Go modernc.org/sqlite: the core stays cgo-free): every transcript
// row of every conversation (her turns, replies, reasoning, tool and
// delegation rows, errors) and the delegation history, with a full-text
// index (FTS5) over the rows' text and reasoning. It is the store of
// app/transcript and app/delegation, which keep their own contracts on
// top of it; nothing else reads the file.
//
// Contracts:
//
//   - Every write is one transaction: it is in the database (the WAL, in
//     the OS) when the call returns, so a killed process loses nothing a
//     call acknowledged; a sync write (a line the user typed, New
//     conversation) is also on the disk (synchronous=FULL for it). A
//     process killed mid-transaction leaves the database as it was before
//     that transaction.
//   - Rows are kept per conversation (Conv); New conversation starts the
//     next one and keeps the old ones, to scroll back to, search and
//     export. At most MaxRows rows are kept (the oldest leave).
//   - Page, Search and Conversation read what the message window asks
//     for, a page at a time: the cost of a page does not grow with the
//     history (the primary key and the full-text index, never a scan).
//   - Migrate imports a JSON file of an older Yui once, in one
//     transaction that also records it as done, then renames the file to
//     <name>.bak (kept). A file that does not parse is kept aside
//     (atomicfile.KeepAside, .bad) and its error returned for a notice;
//     a file that cannot be read is left where it is and retried at the
//     next start.
//   - A DB is safe for concurrent use; two DBs on one file (the transcript's
//     and the delegation history's) see each other's commits.
//
// docs/history.md describes the file, the migrations and the bounds.
package history
