package view

// The message window (role "message", a preset): it mirrors its pet page
// and shows the character's transcript. docs/message-window.md.
const (
	TypeTranscript      = "transcript"       // Transcript, core → message page (on connect and on a reset)
	TypeTranscriptEntry = "transcript_entry" // TranscriptEntry, core → message page (a row added or changed)
	TypeOpenMessages    = "open_messages"    // no fields, pet page → core
)

// WindowMessage is the message window's kind in WindowConfig: an ordinary
// resizable window that hides when closed, like the settings window.
const WindowMessage = "message"

// Message window size in CSS pixels, and the smallest it lays out in.
const (
	MessageWidth     = 420
	MessageHeight    = 560
	MessageMinWidth  = 320
	MessageMinHeight = 320
)

// TranscriptEntry is one row of the transcript: Kind "user", "reply"
// (Text as she said it, Reasoning folded at its top, State "streaming" or
// "done"), "tool" (Text the tool's label, State running/done/failed),
// "delegation" (Text the task, State running/done) or "error". ID grows
// with every row, so a page updates a row in place; At is epoch ms.
type TranscriptEntry struct {
	ID uint64 `json:"id"`
	// Conv is the conversation the row belongs to (New conversation
	// starts the next one; docs/history.md).
	Conv      int64  `json:"conv"`
	TurnID    string `json:"turn_id"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
	Reasoning string `json:"reasoning"`
	State     string `json:"state"`
	At        int64  `json:"at"`
}

// Transcript is the newest rows of the current conversation, oldest
// first (at most history.PageRows): it replaces what the page shows. Conv
// is the current conversation; More says whether older rows exist (of
// this conversation or earlier ones: the page asks for them with
// history_page as the user scrolls back).
type Transcript struct {
	Conv    int64             `json:"conv"`
	Entries []TranscriptEntry `json:"entries"`
	More    bool              `json:"more"`
}

// WindowTitle retitles a window: its character was renamed.
type WindowTitle struct {
	Title string `json:"title"`
}
