package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Tool is one client tool: declared in push hello.tools or a request's
// tools[], and run when the backend calls it. A wire calls Validate before
// it queues a call and Run from its tool goroutine, never two Runs at once
// on one transport.
type Tool interface {
	// Schema is the function declaration (hello.tools, tools[]).
	Schema() FunctionSchema
	// Wait is the client's wait for one call, counted from when the call
	// starts running (see [ClientToolWait] for the limits table's values).
	Wait() time.Duration
	// Validate checks the call's arguments (always a JSON object) before the
	// call is queued. Return a *FieldError (via MissingField / InvalidField)
	// to answer "error: missing field X" / "error: invalid field X" at once;
	// any other error is answered "error: <its text>". Nil queues the call.
	Validate(args json.RawMessage) error
	// Run performs the call. ctx is cancelled when the client's wait passes,
	// when the call's turn is stopped, and when the socket leaves ready;
	// Run must then return promptly. The next call waits for Run to
	// return, but not forever: the push wire abandons a Run still running
	// push.ToolAbandonAfter after its call was answered (log line
	// tool_run_abandoned) and its queue moves on, so a tool that ignores
	// ctx leaks its goroutine. A non-nil err is answered "error: <err>" (a leading "error: " in its text
	// is not doubled). images are data URLs sent in tool_result.images.
	Run(ctx context.Context, call ToolCall) (result string, images []string, err error)
}

// FieldError is a Validate failure naming one argument field.
type FieldError struct {
	Field   string
	Missing bool // true: "missing field", false: "invalid field"
}

func (e *FieldError) Error() string {
	if e.Missing {
		return "missing field " + e.Field
	}
	return "invalid field " + e.Field
}

// MissingField returns the Validate error for an absent required field.
func MissingField(name string) error { return &FieldError{Field: name, Missing: true} }

// InvalidField returns the Validate error for a value the tool does not accept.
func InvalidField(name string) error { return &FieldError{Field: name} }

// The exact tool_result texts of the client's rules.
const (
	ResultUnknownTool    = "error: unknown tool"
	ResultTurnStopped    = "error: turn stopped"
	ResultTooLarge       = "error: result too large"
	resultTimeoutPattern = "error: timed out after %d s"
)

// ResultTimedOut is the answer when a call's client wait passes.
func ResultTimedOut(wait time.Duration) string {
	return fmt.Sprintf(resultTimeoutPattern, int(wait.Round(time.Second)/time.Second))
}

// ToolWaitClass is a row of the limits table's tool_call waits.
type ToolWaitClass int

const (
	WaitQuery ToolWaitClass = iota
	WaitBodyAction
	WaitRateRelation
	WaitAddressCharacter
	WaitBrowser
)

// Client returns the class's wait on the client.
func (c ToolWaitClass) Client() time.Duration {
	switch c {
	case WaitBodyAction:
		return 15 * time.Second
	case WaitBrowser:
		return 32 * time.Second
	}
	return 2 * time.Second
}

// Backend returns the class's wait on the backend adapter.
func (c ToolWaitClass) Backend() time.Duration {
	switch c {
	case WaitBodyAction:
		return 20 * time.Second
	case WaitBrowser:
		return 40 * time.Second
	}
	return 7 * time.Second
}

// WaitClassOf maps a declared tool name to its limits-table row: body_action,
// rate_relation, address_character and browser have their own rows; look and
// any other tool are queries.
func WaitClassOf(name string) ToolWaitClass {
	switch name {
	case "body_action":
		return WaitBodyAction
	case "rate_relation":
		return WaitRateRelation
	case "address_character":
		return WaitAddressCharacter
	case "browser":
		return WaitBrowser
	}
	return WaitQuery
}

// ClientToolWait is WaitClassOf(name).Client().
func ClientToolWait(name string) time.Duration { return WaitClassOf(name).Client() }

// BackendToolWait is WaitClassOf(name).Backend().
func BackendToolWait(name string) time.Duration { return WaitClassOf(name).Backend() }

// ToolFunc adapts plain values and functions to [Tool]. A zero WaitFor uses
// ClientToolWait(Name); a nil ValidateFunc accepts every argument object.
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

func (t ToolFunc) Run(ctx context.Context, call ToolCall) (string, []string, error) {
	if t.RunFunc == nil {
		return "ok", nil, nil
	}
	return t.RunFunc(ctx, call)
}

// ImageFitter shrinks tool result images to fit a byte budget (the JPEG
// fitter, app/jpegfit): the hook a wire calls when a result would not fit. room is the number of bytes the serialized images
// (data URLs, JSON-quoted, comma-separated) may take. It returns the images
// to send, or an error when nothing fits.
type ImageFitter interface {
	FitImages(images []string, room int) ([]string, error)
}

// ToolSchema is one OpenAI function-tool declaration, as push hello.tools
// and Chat Completions tools[] carry it.
type ToolSchema struct {
	Type     string         `json:"type"` // always "function"
	Function FunctionSchema `json:"function"`
}

// FunctionSchema is the function part of a [ToolSchema].
type FunctionSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// ToolCall is a call of a client tool. Arguments is always a JSON object
// ("{}" when the call carried none).
type ToolCall struct {
	ID        string
	TurnID    string
	Name      string
	Arguments json.RawMessage
}

// ToolResult is the answer to a ToolCall, as the wire sent it.
type ToolResult struct {
	ID     string
	TurnID string
	Result string
	Images []string // data URLs; nil when none
}
