package look

import (
	"encoding/json"

	"yui/transport"
)

// The values of the at argument.
const (
	AtBody   = "body"
	AtPerch  = "perch_targets"
	AtScreen = "screen"
)

// args are a validated call's arguments.
type args struct {
	At      string
	Monitor *int
}

// parseArgs validates the arguments (the schema's rules) and reads them.
func parseArgs(raw json.RawMessage) (args, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return args{}, transport.InvalidField("at")
	}
	var a args
	var err error
	if a.At, err = transport.StringArg(fields, "at"); err != nil {
		return args{}, err
	}
	if a.At != AtBody && a.At != AtPerch && a.At != AtScreen {
		return args{}, transport.InvalidField("at")
	}
	if a.Monitor, err = transport.IndexArg(fields, "monitor"); err != nil {
		return args{}, err
	}
	for k := range fields {
		if k != "at" && k != "monitor" {
			return args{}, transport.InvalidField(k)
		}
	}
	return a, nil
}
