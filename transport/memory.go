package transport

// Memory is what a request transport (Chat Completions, Responses without
// chaining) keeps of a character beyond the context window: a running
// summary of the transcript's oldest part and the facts she keeps about
// the user. The client owns it (in Yui, app/memory: one file per
// character); the transport reads it for every request and asks for the
// summary to be extended when messages no longer fit. Implementations are
// safe for concurrent use.
type Memory interface {
	// System is the text sent in the system part of every request (the
	// summary and the facts, worded for the model); "" sends nothing.
	System() string
	// Summary is the running summary and the mark of the last transcript
	// message it covers ("" when it covers none of the current ones).
	Summary() (text, covered string)
	// Summarised replaces the summary from (as Summary returned it) with
	// text, which covers the transcript up to the message marked covered.
	// When the summary is no longer from (the user edited or cleared it
	// meanwhile) the user's wins: nothing changes, and the next turn
	// summarises again from it.
	Summarised(from, text, covered string)
}
