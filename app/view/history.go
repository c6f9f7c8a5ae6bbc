package view

// The message window's history (docs/history.md): it scrolls back through
// every conversation a page at a time, searches them and exports one.
// Message pages only; each answer goes to the message pages of the preset.
const (
	TypeHistoryMore     = "history_more"     // HistoryMore, message page → core
	TypeHistoryPage     = "history_page"     // HistoryPage, core → message page
	TypeHistorySearch   = "history_search"   // HistorySearch, message page → core
	TypeHistoryResults  = "history_results"  // HistoryResults, core → message page
	TypeHistoryExport   = "history_export"   // HistoryExport, message page → core
	TypeHistoryExported = "history_exported" // HistoryExported, core → message page
)

// HistoryMore asks for the page of rows before Before (an id the page
// shows: its oldest).
type HistoryMore struct {
	Before uint64 `json:"before"`
}

// HistoryPage is the rows before Before, oldest first (at most
// history.PageRows); More says whether older rows exist.
type HistoryPage struct {
	Before  uint64            `json:"before"`
	Entries []TranscriptEntry `json:"entries"`
	More    bool              `json:"more"`
}

// HistorySearch searches every conversation for the words of Query (at
// most 512 bytes; the last word a prefix).
type HistorySearch struct {
	Query string `json:"query"`
}

// HistoryHit is one row found: Snippet is its text around the match, the
// matched words between the characters U+0002 and U+0003.
type HistoryHit struct {
	Entry   TranscriptEntry `json:"entry"`
	Snippet string          `json:"snippet"`
}

// HistoryResults answers a search, newest first (at most 50 hits); Error
// is a failure in the user's words.
type HistoryResults struct {
	Query string       `json:"query"`
	Hits  []HistoryHit `json:"hits"`
	Error string       `json:"error,omitempty"`
}

// HistoryExport saves conversation Conv as Format "markdown" or "json".
type HistoryExport struct {
	Conv   int64  `json:"conv"`
	Format string `json:"format"`
}

// HistoryExported says where the export went (Path), or why it did not
// (Error).
type HistoryExported struct {
	Conv   int64  `json:"conv"`
	Format string `json:"format"`
	Path   string `json:"path,omitempty"`
	Error  string `json:"error,omitempty"`
}
