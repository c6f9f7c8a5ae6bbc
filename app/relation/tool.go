package relation

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"yui/transport"
)

// Name is the tool's name in hello.tools and tools[].
const Name = "rate_relation"

// Description and Parameters are the tool's schema (client-notes §5).
const (
	Description = "Record how you feel about the user or another character: move your standing toward them by delta (-5..5); the standing stays within -100..100"
	Parameters  = `{"type":"object","properties":{` +
		`"target":{"type":"string","description":"\"user\", or another character's name"},` +
		`"delta":{"type":"integer","minimum":-5,"maximum":5},` +
		`"reason":{"type":"string","description":"Why, in a few words"}},` +
		`"required":["target","delta"],"additionalProperties":false}`
)

// Cast resolves a target name to the character it names.
type Cast interface {
	// Character returns the preset id of the enabled character named
	// name (matched case-insensitively), or false.
	Character(name string) (id string, ok bool)
	// Name is the display name of the character with preset id id.
	Name(id string) string
}

// Tool is one character's rate_relation.
type Tool struct {
	// Store keeps the standings.
	Store *Store
	// Self is the calling character's preset id.
	Self string
	// Cast lists the other characters; nil knows none (only "user").
	Cast Cast
}

var _ transport.Tool = (*Tool)(nil)

// Schema is the declaration.
func (t *Tool) Schema() transport.FunctionSchema {
	return transport.FunctionSchema{Name: Name, Description: Description, Parameters: json.RawMessage(Parameters)}
}

// Wait is the limits table's rate_relation wait (2 s).
func (t *Tool) Wait() time.Duration { return transport.ClientToolWait(Name) }

// Validate answers a bad call at once.
func (t *Tool) Validate(raw json.RawMessage) error {
	_, err := t.parse(raw)
	return err
}

// Run records the call and answers "ok: <target> <value> (<band>)".
func (t *Tool) Run(_ context.Context, call transport.ToolCall) (string, []string, error) {
	a, err := t.parse(call.Arguments)
	if err != nil {
		return "", nil, err
	}
	st := t.Store.Rate(t.Self, a.target, a.delta, a.reason)
	return fmt.Sprintf("ok: %s %d (%s)", a.name, st.Value, st.Band()), nil, nil
}

type args struct {
	target string // "user" or a preset id
	name   string // as the answer names it
	delta  int
	reason string
}

func (t *Tool) parse(raw json.RawMessage) (args, error) {
	f, err := transport.ToolArgFields(raw, "target", "delta", "reason")
	if err != nil {
		return args{}, err
	}
	var a args
	name, err := transport.StringArg(f, "target")
	if err != nil {
		return args{}, err
	}
	name = strings.TrimSpace(name)
	switch {
	case strings.EqualFold(name, User):
		a.target, a.name = User, User
	case t.Cast != nil:
		id, ok := t.Cast.Character(name)
		if !ok || id == t.Self {
			return args{}, transport.InvalidField("target")
		}
		a.target, a.name = id, t.Cast.Name(id)
	default:
		return args{}, transport.InvalidField("target")
	}
	rawDelta, ok := f["delta"]
	if !ok {
		return args{}, transport.MissingField("delta")
	}
	d, ok := integer(rawDelta)
	if !ok || d < MinDelta || d > MaxDelta {
		return args{}, transport.InvalidField("delta")
	}
	a.delta = d
	if r, ok := f["reason"]; ok && !bytes.Equal(bytes.TrimSpace(r), []byte("null")) {
		if json.Unmarshal(r, &a.reason) != nil {
			return args{}, transport.InvalidField("reason")
		}
		a.reason = strings.Join(strings.Fields(a.reason), " ")
	}
	return a, nil
}

// integer reads a JSON number with no fractional part (3 and 3.0 both; 3.5
// and "3" not).
func integer(raw json.RawMessage) (int, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	var n json.Number
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&n) != nil {
		return 0, false
	}
	if i, err := n.Int64(); err == nil {
		return int(max(-1000, min(1000, i))), true
	}
	f, err := n.Float64()
	if err != nil || f != float64(int64(f)) || f < -1000 || f > 1000 {
		return 0, false
	}
	return int(f), true
}
