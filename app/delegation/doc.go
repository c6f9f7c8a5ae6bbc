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
//   - History keeps every item seen, across restarts, in one JSON file per
//     preset in a directory the caller gives (written with
//     yui/app/atomicfile, mode 0600). Merge applies a frame: known ids take
//     the frame's fields, new ids are added, a running item the frame
//     leaves out becomes done with status "unknown" and ended_at = now. Past
//     MaxHistory (200) items the oldest done items (by started_at) are
//     dropped; a running item is never dropped. The file is written only
//     when the history changed. A write failure is returned but the merged
//     history stays in memory.
//   - A history file that does not parse is renamed aside with a ".bad"
//     suffix and logged; at open the history starts empty, on Reload what
//     is held in memory is kept. Nothing here panics on bad input.
//   - Board composes the two in the order the spec requires: Apply merges a
//     frame into the history before it replaces the live list. Reset
//     empties the live list, never the history.
//   - Live, History and Board are safe for concurrent use; returned slices
//     are copies.
package delegation
