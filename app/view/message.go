package view

import (
	"encoding/json"
	"fmt"
)

// Roles a connection may take.
const (
	RolePet      = "pet"      // a pet window's web page
	RoleShell    = "shell"    // a window process's Go shell (no preset: the settings window's)
	RoleSettings = "settings" // the settings window's web page (no preset)
	// RoleMessage is a message window's web page (a preset): it mirrors
	// the pet page of its preset (every pet topic reaches it too) and gets
	// the transcript (docs/message-window.md).
	RoleMessage = "message"
	// RoleMessageShell is a message window's Go shell (a preset).
	RoleMessageShell = "message_shell"
)

// Message is one view-protocol message: a JSON object with a type field and
// the fields of that type.
type Message struct {
	Type string
	// Body is the whole JSON object, type field included.
	Body json.RawMessage
}

// Encode builds a Message of the given type from v, a struct or map whose
// JSON form is an object. v's own fields must not include "type".
func Encode(typ string, v any) (Message, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Message{}, fmt.Errorf("view: encode %s: %w", typ, err)
	}
	if len(b) < 2 || b[0] != '{' {
		return Message{}, fmt.Errorf("view: encode %s: not a JSON object", typ)
	}
	t, _ := json.Marshal(typ)
	out := make([]byte, 0, len(b)+len(t)+10)
	out = append(out, `{"type":`...)
	out = append(out, t...)
	if len(b) > 2 {
		out = append(out, ',')
	}
	out = append(out, b[1:]...)
	return Message{Type: typ, Body: out}, nil
}

// MustEncode is Encode for values known to encode (structs of plain fields).
func MustEncode(typ string, v any) Message {
	m, err := Encode(typ, v)
	if err != nil {
		panic(err)
	}
	return m
}

// Decode reads a message's type; the body stays raw for the handler.
func Decode(b []byte) (Message, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return Message{}, fmt.Errorf("view: decode: %w", err)
	}
	if head.Type == "" {
		return Message{}, fmt.Errorf("view: decode: missing type")
	}
	return Message{Type: head.Type, Body: append(json.RawMessage(nil), b...)}, nil
}
