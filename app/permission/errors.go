package permission

import "errors"

// The answers a request can get. Their texts are the tool_result texts
// after "error: ", so callers can answer "error: " + err.Error() of the
// sentinel itself (match with errors.Is).
var (
	// ErrPending: no standing permission; the user has been asked.
	ErrPending = errors.New("permission pending: asked the user")
	// ErrDenied: deny mode, or the user denied.
	ErrDenied = errors.New("permission denied")
	// ErrOff: per-turn capture is off for the preset.
	ErrOff = errors.New("screenshot with each turn is off")
	// ErrNoGrant: a capture was tried with a nil, zero or used grant.
	ErrNoGrant = errors.New("permission: no valid grant")
	// ErrNoPrompt: Answer named a prompt that is not open.
	ErrNoPrompt = errors.New("permission: no such prompt open")
)
