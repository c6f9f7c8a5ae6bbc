package console

import (
	"encoding/json"
	"errors"

	"yui/app/look"
	"yui/app/permission"
)

// answer applies "/allow once|always|deny" to the gate's open prompt and
// returns the prompt's id and the choice applied.
func answer(gate *permission.Gate, arg string) (uint64, permission.Choice, error) {
	c, ok := permission.ParseChoice(arg)
	if !ok {
		return 0, c, errors.New("usage: /allow once | always | deny")
	}
	p, open := gate.Open()
	if !open {
		return 0, c, errors.New("no screen permission prompt is open")
	}
	return p.ID, c, gate.Answer(p.ID, c)
}

// validateLook is the look tool's argument check.
func validateLook(args json.RawMessage) error { return look.New(look.Config{}).Validate(args) }
