package transport

import (
	"bytes"
	"encoding/json"
	"slices"
)

// ToolArgFields reads a call's arguments as a JSON object whose fields are
// all among allowed. Arguments that are not an object are answered
// InvalidField(allowed[0]); a field not in allowed InvalidField(its name).
// allowed must not be empty.
func ToolArgFields(raw json.RawMessage, allowed ...string) (map[string]json.RawMessage, error) {
	var f map[string]json.RawMessage
	if err := json.Unmarshal(raw, &f); err != nil || f == nil {
		return nil, InvalidField(allowed[0])
	}
	for k := range f {
		if !slices.Contains(allowed, k) {
			return nil, InvalidField(k)
		}
	}
	return f, nil
}

// StringArg reads the required string field name of a call's arguments:
// MissingField when it is absent, InvalidField when it is not a JSON
// string. Checking the value further is the caller's.
func StringArg(fields map[string]json.RawMessage, name string) (string, error) {
	raw, ok := fields[name]
	if !ok {
		return "", MissingField(name)
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", InvalidField(name)
	}
	return s, nil
}

// IndexArg reads the optional field name of a call's arguments as a
// non-negative integer (a display number): nil when it is absent,
// InvalidField when it is null, not an integer or negative.
func IndexArg(fields map[string]json.RawMessage, name string) (*int, error) {
	raw, ok := fields[name]
	if !ok {
		return nil, nil
	}
	var n int
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) || json.Unmarshal(raw, &n) != nil || n < 0 {
		return nil, InvalidField(name)
	}
	return &n, nil
}
