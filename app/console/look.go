package console

import (
	"context"
	"encoding/json"
	"fmt"

	"yui/transport/push"
)

// lookTool is the console's `look`: the console has a body that always
// stands on display 0 and no screen to show.
func lookTool() push.Tool {
	return push.ToolFunc{
		Name:        "look",
		Description: "Read body state, perch targets, or a display screenshot; screen requests require user permission",
		Parameters: json.RawMessage(`{"type":"object","properties":{"at":{"type":"string","enum":["body","perch_targets","screen"]},` +
			`"monitor":{"type":"integer","description":"For screen: the display number used by body_action.monitor; omit for the character's display"}},` +
			`"required":["at"],"additionalProperties":false}`),
		ValidateFunc: validateLook,
		RunFunc: func(_ context.Context, call push.ToolCall) (string, []string, error) {
			var a lookArgs
			if err := json.Unmarshal(call.Arguments, &a); err != nil {
				return "", nil, fmt.Errorf("invalid field at")
			}
			switch a.At {
			case "body":
				return `{"posture":"standing","monitor":0,"on":null,"view":"console"}`, nil, nil
			case "perch_targets":
				return `{"windows":[],"edges":[]}`, nil, nil
			}
			return "error: permission denied", nil, nil
		},
	}
}

type lookArgs struct {
	At      string `json:"at"`
	Monitor *int   `json:"monitor"`
}

func validateLook(args json.RawMessage) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(args, &raw); err != nil {
		return push.InvalidField("at")
	}
	at, ok := raw["at"]
	if !ok {
		return push.MissingField("at")
	}
	var s string
	if json.Unmarshal(at, &s) != nil || (s != "body" && s != "perch_targets" && s != "screen") {
		return push.InvalidField("at")
	}
	if m, ok := raw["monitor"]; ok {
		var n int
		if json.Unmarshal(m, &n) != nil {
			return push.InvalidField("monitor")
		}
	}
	for k := range raw {
		if k != "at" && k != "monitor" {
			return push.InvalidField(k)
		}
	}
	return nil
}
