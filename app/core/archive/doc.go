// Package archive is the message window's history room: it answers what a
// message page asks of a character's whole history (app/history) — the
// page of rows before the oldest it shows (history_more → history_page),
// a search of every conversation (history_search → history_results) and
// the export of one conversation as Markdown or JSON to a file
// (history_export → history_exported). Only message pages may ask, each
// of its own preset; answers go to that preset's message pages. Every
// answer is bounded: a page is history.PageRows rows, a search 50 hits.
// docs/history.md.
package archive
