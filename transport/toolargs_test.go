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

func TestIndexArg(t *testing.T) {
	f := map[string]json.RawMessage{"z": json.RawMessage(`0`), "two": json.RawMessage(` 2 `)}
	for _, bad := range []string{`null`, ` null `, `-1`, `1.5`, `"1"`, `true`} {
		f["bad"] = json.RawMessage(bad)
		if n, err := IndexArg(f, "bad"); n != nil || fieldErr(t, err) != (FieldError{Field: "bad"}) {
			t.Errorf("%s: %v, %v; want invalid field bad", bad, n, err)
		}
	}
	if n, err := IndexArg(f, "z"); err != nil || n == nil || *n != 0 {
		t.Errorf("0: %v, %v", n, err)
	}
	if n, err := IndexArg(f, "two"); err != nil || n == nil || *n != 2 {
		t.Errorf("2: %v, %v", n, err)
	}
	if n, err := IndexArg(f, "absent"); n != nil || err != nil {
		t.Errorf("absent: %v, %v", n, err)
	}
}
