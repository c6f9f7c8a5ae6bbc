package bodyaction_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"yui/app/bodyaction"
	"yui/transport"
)

func TestSchemaAndWait(t *testing.T) {
	tool := bodyaction.New(nil)
	s := tool.Schema()
	var p struct {
		Required             []string                   `json:"required"`
		AdditionalProperties bool                       `json:"additionalProperties"`
		Properties           map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(s.Parameters, &p); err != nil || s.Name != "body_action" {
		t.Fatal(s.Name, err)
	}
	if len(p.Required) != 1 || p.Required[0] != "action" || p.AdditionalProperties || len(p.Properties) != 5 {
		t.Fatalf("%+v", p)
	}
	if tool.Wait() != 15*time.Second {
		t.Fatalf("wait %v: the limits table's body action wait", tool.Wait())
	}
	res, _, err := tool.Run(context.Background(), transport.ToolCall{Name: "body_action", Arguments: json.RawMessage(`{"action":"go_to_bed"}`)})
	if res != bodyaction.Unsupported || err != nil {
		t.Fatal(res, err)
	}
}

func TestParse(t *testing.T) {
	for args, want := range map[string]string{
		`{"action":"sit_on_window","app":"XTerm"}`:            "",
		`{"action":"peek","side":"right","app":"ignored"}`:    "",
		`{"action":"move_to","spot":"top-left","monitor":1}`:  "",
		`{"action":"stand"}`:                                  "",
		`{"action":"go_to_bed"}`:                              "",
		`{}`:                                                  "missing field action",
		`{"action":"sit_on_window"}`:                          "missing field app",
		`{"action":"sit_on_window","app":""}`:                 "invalid field app",
		`{"action":"sit_on_window","app":3}`:                  "invalid field app",
		`{"action":"peek"}`:                                   "missing field side",
		`{"action":"peek","side":"up"}`:                       "invalid field side",
		`{"action":"move_to"}`:                                "missing field spot",
		`{"action":"move_to","spot":"middle"}`:                "invalid field spot",
		`{"action":"move_to","spot":"center","monitor":-1}`:   "invalid field monitor",
		`{"action":"move_to","spot":"center","monitor":1.5}`:  "invalid field monitor",
		`{"action":"move_to","spot":"center","monitor":null}`: "invalid field monitor",
		`{"action":"dance"}`:                                  "invalid field action",
		`{"action":null}`:                                     "invalid field action",
		`{"action":"stand","speed":3}`:                        "invalid field speed",
	} {
		_, err := bodyaction.Parse(json.RawMessage(args))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%s: %q, want %q", args, got, want)
		}
	}
}
