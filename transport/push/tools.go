package push

import (
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
