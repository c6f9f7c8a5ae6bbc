// Package delegation keeps the work the backend delegated to background
// workers: the live list shown in the chip and the persisted history shown
// in settings (push spec, "delegations").
//
// Contracts:
//
//   - Item's JSON is exactly the delegations frame item: id, title,
//     started_at, state, ended_at, status, summary (epoch milliseconds).
//   - Every frame list is cleaned before use (Clean): items without an id or
//     with a state other than running/done are dropped, a repeated id keeps
//     its first item, at most MaxItems (50) items are kept, titles are cut
//     to MaxTitle (120) and summaries to MaxSummary (2,000) Unicode code
//     points, invalid UTF-8 is replaced, a running item loses ended_at,
//     status and summary, and a done item without a status gets "unknown".
//   - Live is replaced by each frame. A done item without ended_at keeps
//     the ended_at it had in the previous list, else takes the time the
//     client first saw it done. Visible(now) lists running items and done
//     items until ended_at + 30 min (DoneVisibleFor); NextExpiry(now) is the
//     next moment Visible changes on its own, so a view can arm one timer
//     instead of polling. Reset empties the live list.
//   - History keeps every item seen, across restarts, in the preset's
//     history database (app/history, in the directory the caller gives,
//     mode 0600; an older Yui's delegation-history-<preset>.json is
//     imported once and kept as .bak). Merge applies a frame: known ids take
//     the frame's fields, new ids are added, a running item the frame
//     leaves out becomes done with status "unknown" and ended_at = now. Past
//     MaxHistory (200) items the oldest done items (by started_at) are
//     dropped; a running item is never dropped. Only the items that
//     changed are written, in one transaction, and only when the history
//     changed. A write failure is returned but the merged history stays in
//     memory; a database that cannot be opened keeps the history in memory
//     and every save tries to open it again.
//   - An older history file that does not parse is renamed aside with a
//     ".bad" suffix and logged; the history starts without it. Nothing
//     here panics on bad input.
//   - Board composes the two in the order the spec requires: Apply merges a
//     frame into the history before it replaces the live list. Reset
//     empties the live list, never the history.
//   - Live, History and Board are safe for concurrent use; returned slices
//     are copies.
package delegation
