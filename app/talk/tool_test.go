package talk

import (
	"context"
	"encoding/json"
	"testing"

	"yui/transport"
)

type addr struct{ err error }

func (a addr) Address(_, _, _ string) error { return a.err }

func TestAnswers(t *testing.T) {
	run := func(tool *Tool, args string) string {
		raw := json.RawMessage(args)
		if err := tool.Validate(raw); err != nil {
			return "error: " + err.Error()
		}
		res, _, err := tool.Run(context.Background(), transport.ToolCall{Arguments: raw})
		if err != nil {
			return "error: " + err.Error()
		}
		return res
	}
	ok := &Tool{Self: "a", To: addr{}}
	for args, want := range map[string]string{
		`{"character":"Mika","text":"hi"}`:       "ok",
		`{"text":"hi"}`:                          "error: missing field character",
		`{"character":"Mika"}`:                   "error: missing field text",
		`{"character":"","text":"hi"}`:           "error: invalid field character",
		`{"character":"Mika","text":"  "}`:       "error: invalid field text",
		`{"character":"Mika","text":3}`:          "error: invalid field text",
		`{"character":"Mika","text":"hi","x":1}`: "error: invalid field x",
	} {
		if got := run(ok, args); got != want {
			t.Errorf("%s: %q, want %q", args, got, want)
		}
	}
	if got := run(&Tool{Self: "a", To: addr{ErrUnknown}}, `{"character":"Mika","text":"hi"}`); got != "error: invalid field character" {
		t.Errorf("unknown: %q", got)
	}
	if got := run(&Tool{Self: "a", To: addr{ErrBusy}}, `{"character":"Mika","text":"hi"}`); got != "error: busy" {
		t.Errorf("busy: %q", got)
	}
	if (&Tool{}).Wait().Seconds() != 2 {
		t.Error("wait")
	}
}
