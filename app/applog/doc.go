// Package applog sets up Yui's app log: log/slog JSON lines, one file per
// local day in the log directory (yui-YYYY-MM-DD.log), with the keys ts,
// level and event (the slog message) followed by named fields, each key
// once per line (a later With or record attribute replaces an earlier one
// of the same key). The turn log is yui-turns-YYYY-MM-DD.log beside it
// (TurnLogPrefix), for the app and `yui console` alike.
//
// Bounds: every string or error value is cut to MaxValueRunes code points
// (a backend's strings reach log lines: tool ids, turn ids, messages), and
// a day's file is rotated by size (DailyFile.MaxBytes, keeping Keep older
// files), so nothing a backend sends can grow the log without limit. An
// event that floods is folded (fold.go): each event name writes at most
// FoldBurst lines a FoldWindow (300 a minute), and a log_folded line
// (of, lines, window_s) says how many more there were, so a flood cannot
// push the earlier lines out of the rotated files either.
//
// Attributes named like secrets (key, token, api_key, authorization) are
// replaced by "[redacted]" so no secret reaches a log even by mistake.
// A DailyFile may be written from any goroutine.
package applog
