package session

import (
	"context"
	"strings"

	"yui/transport/push"
)

// observedTool reports each call the client runs as a tool_call event and
// its answer as a tool_result event. Calls the push client answers without
// running them (unknown tool, invalid arguments, stopped turn) are not
// reported.
type observedTool struct {
	push.Tool
	s *Session
}

func (o observedTool) Run(ctx context.Context, call push.ToolCall) (string, []string, error) {
	s := o.s
	s.post(func() {
		s.emit(Event{Kind: KindToolCall, CallID: call.ID, TurnID: call.TurnID, Name: call.Name, Arguments: call.Arguments})
	})
	result, images, err := o.Tool.Run(ctx, call)
	shown := result
	if err != nil {
		shown = strings.TrimSpace(err.Error())
		if !strings.HasPrefix(shown, "error:") {
			shown = "error: " + shown
		}
	}
	s.post(func() {
		s.emit(Event{Kind: KindToolResult, CallID: call.ID, TurnID: call.TurnID, Result: shown})
	})
	return result, images, err
}
