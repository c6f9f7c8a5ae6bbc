package push

import (
	"context"
	"encoding/json"
	"time"

	"yui/transport"
)

// The client tool contract lives in package transport; these names keep
// the push client's API as it was.
type (
	// Tool is [transport.Tool].
	Tool = transport.Tool
	// FieldError is [transport.FieldError].
	FieldError = transport.FieldError
	// ToolWaitClass is [transport.ToolWaitClass].
	ToolWaitClass = transport.ToolWaitClass
	// ImageFitter is [transport.ImageFitter].
	ImageFitter = transport.ImageFitter
)

// MissingField returns the Validate error for an absent required field.
func MissingField(name string) error { return transport.MissingField(name) }

// InvalidField returns the Validate error for a value the tool does not accept.
func InvalidField(name string) error { return transport.InvalidField(name) }

// The exact tool_result texts of the client's rules.
const (
	ResultUnknownTool = transport.ResultUnknownTool
	ResultTurnStopped = transport.ResultTurnStopped
	ResultTooLarge    = transport.ResultTooLarge
	// ResultTooManyCalls answers a call that finds MaxQueuedToolCalls
	// calls already queued (the adapter sends one at a time; a backend
	// that does not is refused rather than queued without bound).
	ResultTooManyCalls = "error: too many tool calls queued"
)

// ResultTimedOut is the answer when a call's client wait passes.
func ResultTimedOut(wait time.Duration) string { return transport.ResultTimedOut(wait) }

// The limits table's tool_call wait rows.
const (
	WaitQuery            = transport.WaitQuery
	WaitBodyAction       = transport.WaitBodyAction
	WaitRateRelation     = transport.WaitRateRelation
	WaitAddressCharacter = transport.WaitAddressCharacter
	WaitBrowser          = transport.WaitBrowser
)

// ClientToolWait is WaitClassOf(name).Client().
func ClientToolWait(name string) time.Duration { return transport.ClientToolWait(name) }

// BackendToolWait is WaitClassOf(name).Backend().
func BackendToolWait(name string) time.Duration { return transport.BackendToolWait(name) }

// ToolFunc adapts plain values and functions to [Tool], with the push
// tool_call frame as the call. A zero WaitFor uses ClientToolWait(Name); a
// nil ValidateFunc accepts every argument object.
type ToolFunc struct {
	Name         string
	Description  string
	Parameters   json.RawMessage
	WaitFor      time.Duration
	ValidateFunc func(args json.RawMessage) error
	RunFunc      func(ctx context.Context, call ToolCall) (string, []string, error)
}

func (t ToolFunc) Schema() FunctionSchema {
	return FunctionSchema{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
}

func (t ToolFunc) Wait() time.Duration {
	if t.WaitFor > 0 {
		return t.WaitFor
	}
	return ClientToolWait(t.Name)
}

func (t ToolFunc) Validate(args json.RawMessage) error {
	if t.ValidateFunc == nil {
		return nil
	}
	return t.ValidateFunc(args)
}

func (t ToolFunc) Run(ctx context.Context, call transport.ToolCall) (string, []string, error) {
	if t.RunFunc == nil {
		return "ok", nil, nil
	}
	return t.RunFunc(ctx, ToolCall(call))
}
