package request

import (
	"context"
	"encoding/json"
	"io"

	"yui/transport"
)

// System is the system part of the exchange: the card, then the memory.
func (x *Exchange) System() string {
	switch {
	case x.Memory == "":
		return x.Params.Card
	case x.Params.Card == "":
		return x.Memory
	}
	return x.Params.Card + "\n\n" + x.Memory
}

// Params are the preset fields a request carries, read fresh per turn.
type Params struct {
	Model           string
	ReasoningEffort string
	Card            string
	ContextWindow   int
}

// Call is one function call of a round and, once run, its answer.
type Call struct {
	ID        string
	Name      string
	Arguments json.RawMessage
	// Output and Images are the answer sent back on the next round.
	Output string
	Images []string
	// Refused, when set, answers the call without running it (arguments
	// over MaxCallArguments: ResultArgumentsTooLarge).
	Refused string
	over    string // the call broke a bound that fails the turn (CallBuf)
}

// Round is a finished request of a turn that asked for tools.
type Round struct {
	Text  string // the assistant text of the round
	Calls []Call // every call of the round, answered
	// State is what the wire kept of the round (a response id).
	State any
}

// Exchange is one turn as the wire builds its requests.
type Exchange struct {
	// Base is the base URL the turn goes to (read once per turn).
	Base       string
	Turn       transport.Turn
	Params     Params
	Tools      []transport.ToolSchema // the cue tool, then the client tools
	Transcript []Message              // earlier exchanges the client holds
	// Memory is the character's memory for the system part, after the
	// card (the summary of what no longer fits, the facts); "" none.
	Memory string
	Rounds []Round
}

// Wire is one request API: it builds a round's body and reads its stream.
type Wire interface {
	// Path is appended to the base URL ("/chat/completions").
	Path() string
	// Body is the JSON body of the exchange's next round.
	Body(x *Exchange) ([]byte, error)
	// Read reads a round's event stream into s until it ends. It returns
	// nil when the stream finished properly, a *StreamError for an error
	// the stream carried, io.ErrUnexpectedEOF for a stream cut short, and
	// the reader's error otherwise.
	Read(ctx context.Context, body io.Reader, s *Stream) error
	// UserMessage is the turn as the wire carries it (EncodeTurn).
	UserMessage(t transport.Turn) ([]byte, error)
	// Done is called after a turn completed, with its whole spoken text
	// and the state of its last round (Responses keeps the response id).
	Done(x *Exchange, spoken string, last any)
	// Refused lets the wire adapt to a 400 answer and ask for the round to
	// be sent again (llama.cpp refuses previous_response_id).
	Refused(x *Exchange, e *StatusError) (retry bool)
	// Reset starts a new conversation.
	Reset()
}

// StreamError is an error a stream carried. Status is 0 when it named none
// (the turn then shows the generic text).
type StreamError struct {
	Status int
	Text   string
}

func (e *StreamError) Error() string {
	if e.Status == 0 {
		return "stream error: " + e.Text
	}
	return (&StatusError{Status: e.Status, Text: e.Text}).Error()
}
