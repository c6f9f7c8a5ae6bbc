package bodyaction

import (
	"context"
	"encoding/json"
	"time"

	"yui/transport"
)

// Name is the tool's name in hello.tools and tools[].
const Name = "body_action"

// Description and Parameters are the tool's schema (client-notes §5).
const (
	Description = "Move the character's body on the user's desktop: sit on a window's top edge (and stay on it as it moves), " +
		"peek in from a screen edge, walk to a spot, stand up, or go to bed (sleep until the user wakes her). " +
		"Answers ok once she got there, or error: not_found, blocked, interrupted, busy or unsupported"
	Parameters = `{"type":"object","properties":{` +
		`"action":{"type":"string","enum":["sit_on_window","peek","move_to","stand","go_to_bed"]},` +
		`"app":{"type":"string","description":"For sit_on_window: the app whose window to sit on, as look at perch_targets lists it (case-insensitive)"},` +
		`"side":{"type":"string","enum":["left","right"],"description":"For peek: the screen edge"},` +
		`"spot":{"type":"string","enum":["center","top-left","top-right","bottom-left","bottom-right"],"description":"For move_to: where on the display"},` +
		`"monitor":{"type":"integer","description":"For move_to: the display number look uses; omit for the character's display"}},` +
		`"required":["action"],"additionalProperties":false}`
)

// The answers (client-notes §5).
const (
	OK          = "ok"
	NotFound    = "error: not_found"
	Blocked     = "error: blocked"
	Interrupted = "error: interrupted"
	Busy        = "error: busy"
	Unsupported = "error: unsupported"
	// NoMonitor is move_to's answer for a monitor that is not there.
	NoMonitor = "error: invalid field monitor"
)

// Actor performs actions: the desktop life room.
type Actor interface {
	// Act performs a and returns one of the answers once she got there,
	// or at once when she cannot. It must return promptly when ctx ends
	// (the client's wait passed, the turn stopped), leaving her where the
	// action stopped.
	Act(ctx context.Context, a Action) string
}

// Tool is the body_action tool.
type Tool struct{ actor Actor }

var _ transport.Tool = (*Tool)(nil)

// New returns the tool; a nil actor answers every call "error:
// unsupported".
func New(actor Actor) *Tool { return &Tool{actor: actor} }

// Schema is the declaration.
func (t *Tool) Schema() transport.FunctionSchema {
	return transport.FunctionSchema{Name: Name, Description: Description, Parameters: json.RawMessage(Parameters)}
}

// Wait is the limits table's body action wait (15 s).
func (t *Tool) Wait() time.Duration { return transport.ClientToolWait(Name) }

// Validate answers argument errors at once.
func (t *Tool) Validate(raw json.RawMessage) error {
	_, err := Parse(raw)
	return err
}

// Run performs one call.
func (t *Tool) Run(ctx context.Context, call transport.ToolCall) (string, []string, error) {
	a, err := Parse(call.Arguments)
	if err != nil {
		return "", nil, err
	}
	if t.actor == nil {
		return Unsupported, nil, nil
	}
	return t.actor.Act(ctx, a), nil, nil
}
