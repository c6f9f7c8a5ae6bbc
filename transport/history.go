package transport

// History is the conversation a request transport (Chat Completions,
// Responses without chaining) sends with each turn, kept by the client: in
// Yui it is the character's transcript, the same store the message window
// shows (docs/message-window.md, "One store"). Implementations are safe for
// concurrent use; a reset empties them (the client clears it, not the
// transport).
type History interface {
	// Exchanges returns the user and assistant messages since the last
	// reset, oldest first.
	Exchanges() []HistoryMessage
	// RecordExchange records turn turnID's completed exchange: the user's
	// text as sent and the whole reply as received. The transport calls it
	// before the turn's TurnEnd, so a turn sent on that TurnEnd follows on
	// from it.
	RecordExchange(turnID, user, assistant string)
}

// HistoryMessage is one message of a History: Role "user" or "assistant".
type HistoryMessage struct {
	Role    string
	Content string
}
