package bodyaction

import (
	"bytes"
	"encoding/json"
	"slices"

	"yui/transport"
)

// Kind is the action.
type Kind string

// The actions.
const (
	SitOnWindow Kind = "sit_on_window"
	Peek        Kind = "peek"
	MoveTo      Kind = "move_to"
	Stand       Kind = "stand"
	GoToBed     Kind = "go_to_bed"
)

// Kinds are the actions in the schema's order.
var Kinds = []Kind{SitOnWindow, Peek, MoveTo, Stand, GoToBed}

// Sides are peek's sides; Spots are move_to's spots.
var (
	Sides = []string{"left", "right"}
	Spots = []string{"center", "top-left", "top-right", "bottom-left", "bottom-right"}
)

// Action is one validated call.
type Action struct {
	Kind Kind
	// App is sit_on_window's app, as the window list names it.
	App string
	// Side is peek's side.
	Side string
	// Spot is move_to's spot; Monitor its monitor (nil: hers).
	Spot    string
	Monitor *int
}

// Parse validates the arguments (the schema's rules) and reads them.
func Parse(raw json.RawMessage) (Action, error) {
	fields, err := transport.ToolArgFields(raw, "action", "app", "side", "spot", "monitor")
	if err != nil {
		return Action{}, err
	}
	var a Action
	kind, err := transport.StringArg(fields, "action")
	if err != nil {
		return Action{}, err
	}
	if !slices.Contains(Kinds, Kind(kind)) {
		return Action{}, transport.InvalidField("action")
	}
	a.Kind = Kind(kind)
	if a.App, err = str(fields, "app", nil); err != nil {
		return Action{}, err
	}
	if a.Side, err = str(fields, "side", Sides); err != nil {
		return Action{}, err
	}
	if a.Spot, err = str(fields, "spot", Spots); err != nil {
		return Action{}, err
	}
	if a.Monitor, err = transport.IndexArg(fields, "monitor"); err != nil {
		return Action{}, err
	}
	switch {
	case a.Kind == SitOnWindow && a.App == "":
		return Action{}, transport.MissingField("app")
	case a.Kind == Peek && a.Side == "":
		return Action{}, transport.MissingField("side")
	case a.Kind == MoveTo && a.Spot == "":
		return Action{}, transport.MissingField("spot")
	}
	return a, nil
}

// str reads a string field: "" when absent; an error when it is not a
// non-empty string (or not one of allowed, when given).
func str(fields map[string]json.RawMessage, name string, allowed []string) (string, error) {
	raw, ok := fields[name]
	if !ok {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil || len(bytes.TrimSpace([]byte(s))) == 0 || (allowed != nil && !slices.Contains(allowed, s)) {
		return "", transport.InvalidField(name)
	}
	return s, nil
}
