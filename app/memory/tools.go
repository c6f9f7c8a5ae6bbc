package memory

import (
	"context"
	"encoding/json"
	"strings"

	"yui/transport"
)

// Tool names of the facts' client tools (declared on the request wires
// only: push and Standard Agents backends keep their own memory).
const (
	RememberTool = "remember"
	ForgetTool   = "forget"
)

var factParams = json.RawMessage(`{"type":"object","properties":{"fact":{"type":"string","description":"One short fact about the user, in one line."}},"required":["fact"],"additionalProperties":false}`)

// Tools are remember and forget on s.
func (s *Store) Tools() []transport.Tool {
	return []transport.Tool{
		transport.ToolFunc{
			Name:         RememberTool,
			Description:  "Keep a short fact about the user (their name, a preference) for later conversations. The user can see and edit what you keep.",
			Parameters:   factParams,
			ValidateFunc: validateFact,
			RunFunc: func(_ context.Context, c transport.ToolCall) (string, []string, error) {
				if err := s.Remember(factOf(c.Arguments)); err != nil {
					return "", nil, err
				}
				return "ok", nil, nil
			},
		},
		transport.ToolFunc{
			Name:         ForgetTool,
			Description:  "Drop a fact you keep about the user (give its text, or a part of it that matches only that fact).",
			Parameters:   factParams,
			ValidateFunc: validateFact,
			RunFunc: func(_ context.Context, c transport.ToolCall) (string, []string, error) {
				if err := s.Forget(factOf(c.Arguments)); err != nil {
					return "", nil, err
				}
				return "ok", nil, nil
			},
		},
	}
}

func factOf(args json.RawMessage) string {
	var a struct {
		Fact string `json:"fact"`
	}
	_ = json.Unmarshal(args, &a)
	return a.Fact
}

func validateFact(args json.RawMessage) error {
	var a map[string]json.RawMessage
	if err := json.Unmarshal(args, &a); err != nil {
		return transport.InvalidField("fact")
	}
	f, err := transport.StringArg(a, "fact")
	if err != nil {
		return err
	}
	if strings.TrimSpace(f) == "" {
		return transport.InvalidField("fact")
	}
	return nil
}
