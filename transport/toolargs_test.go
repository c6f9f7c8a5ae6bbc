package transport

import (
	"encoding/json"
	"errors"
	"testing"
)

func fieldErr(t *testing.T, err error) FieldError {
	t.Helper()
	var fe *FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v, want a *FieldError", err)
	}
	return *fe
}

func TestToolArgFields(t *testing.T) {
	for _, raw := range []string{`null`, `[]`, `"x"`, `{`} {
		_, err := ToolArgFields(json.RawMessage(raw), "a", "b")
		if got := fieldErr(t, err); got != (FieldError{Field: "a"}) {
			t.Errorf("%s: %+v, want invalid field a", raw, got)
		}
	}
	_, err := ToolArgFields(json.RawMessage(`{"a":1,"c":2}`), "a", "b")
	if got := fieldErr(t, err); got != (FieldError{Field: "c"}) {
		t.Errorf("unknown field: %+v, want invalid field c", got)
	}
	f, err := ToolArgFields(json.RawMessage(`{"b":true}`), "a", "b")
	if err != nil || len(f) != 1 || string(f["b"]) != "true" {
		t.Errorf("allowed fields: %v, %v", f, err)
	}
}

func TestStringArg(t *testing.T) {
	f := map[string]json.RawMessage{"s": json.RawMessage(`"hi"`), "n": json.RawMessage(`3`)}
	if s, err := StringArg(f, "s"); s != "hi" || err != nil {
		t.Errorf("string: %q, %v", s, err)
	}
	if _, err := StringArg(f, "n"); fieldErr(t, err) != (FieldError{Field: "n"}) {
		t.Errorf("number: %v, want invalid field n", err)
	}
	if _, err := StringArg(f, "m"); fieldErr(t, err) != (FieldError{Field: "m", Missing: true}) {
		t.Errorf("absent: %v, want missing field m", err)
	}
}
