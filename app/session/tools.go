package session

import (
	"yui/transport/push"
)

// observedTool is a declared tool as the push client runs it. The
// tool_call and tool_result events come from the session's handler
// (push.ToolObserver), which hears of every call the client answers —
// those answered at once (unknown tool, missing or invalid field, stopped
// turn) included — and of the result exactly as sent (a timeout or
// "error: result too large" included).
type observedTool struct {
	push.Tool
	s *Session
}
