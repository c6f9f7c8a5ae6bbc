package talk

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"yui/transport"
)

// Name is the tool's name in hello.tools and tools[].
const Name = "address_character"

// MaxText bounds what one character says to another, in characters.
const MaxText = 2000

// Description and Parameters are the tool's schema.
const (
	Description = "Say something to another character on the user's desktop; they answer in their own bubble"
	Parameters  = `{"type":"object","properties":{` +
		`"character":{"type":"string","description":"The other character's name"},` +
		`"text":{"type":"string","description":"What you say to them"}},` +
		`"required":["character","text"],"additionalProperties":false}`
)

// The Addresser's refusals.
var (
	// ErrUnknown: no enabled, shown character by that name other than the
	// caller (answered "error: invalid field character").
	ErrUnknown = errors.New("unknown character")
	// ErrBusy: the chain reached its cap or rate (answered "error: busy").
	ErrBusy = errors.New("busy")
)

// ResultBusy is the answer while the chain may not go on.
const ResultBusy = "error: busy"

// Addresser starts the addressed character's turn.
type Addresser interface {
	// Address starts a turn on the character named character (matched
	// case-insensitively) from the character with preset id from, with
	// text as its utterance. ErrUnknown or ErrBusy refuse it.
	Address(from, character, text string) error
}

// Tool is one character's address_character.
type Tool struct {
	// Self is the caller's preset id.
	Self string
	// To starts the turns; nil refuses every character.
	To Addresser
}

var _ transport.Tool = (*Tool)(nil)

// Schema is the declaration.
func (t *Tool) Schema() transport.FunctionSchema {
	return transport.FunctionSchema{Name: Name, Description: Description, Parameters: json.RawMessage(Parameters)}
}

// Wait is the limits table's address_character wait (2 s).
func (t *Tool) Wait() time.Duration { return transport.ClientToolWait(Name) }

// Validate answers a malformed call at once.
func (t *Tool) Validate(raw json.RawMessage) error {
	_, _, err := parseArgs(raw)
	return err
}

// Run hands the call to the Addresser and answers at once.
func (t *Tool) Run(_ context.Context, call transport.ToolCall) (string, []string, error) {
	name, text, err := parseArgs(call.Arguments)
	if err != nil {
		return "", nil, err
	}
	if t.To == nil {
		return "", nil, transport.InvalidField("character")
	}
	switch err := t.To.Address(t.Self, name, text); {
	case errors.Is(err, ErrUnknown):
		return "", nil, transport.InvalidField("character")
	case errors.Is(err, ErrBusy):
		return ResultBusy, nil, nil
	case err != nil:
		return "", nil, err
	}
	return "ok", nil, nil
}

func parseArgs(raw json.RawMessage) (string, string, error) {
	f, err := transport.ToolArgFields(raw, "character", "text")
	if err != nil {
		return "", "", err
	}
	name, err := transport.StringArg(f, "character")
	if err != nil {
		return "", "", err
	}
	if strings.TrimSpace(name) == "" {
		return "", "", transport.InvalidField("character")
	}
	text, err := transport.StringArg(f, "text")
	if err != nil {
		return "", "", err
	}
	if strings.TrimSpace(text) == "" || utf8.RuneCountInString(text) > MaxText {
		return "", "", transport.InvalidField("text")
	}
	return strings.TrimSpace(name), strings.TrimSpace(text), nil
}
