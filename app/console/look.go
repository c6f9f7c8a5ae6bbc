package console

import (
	"encoding/json"
	"errors"

	"yui/app/look"
	"yui/app/permission"
)

// answer applies "/allow once|always|deny" to the gate's open prompt.
func answer(gate *permission.Gate, arg string) error {
	c, ok := permission.ParseChoice(arg)
	if !ok {
		return errors.New("usage: /allow once | always | deny")
	}
	p, open := gate.Open()
	if !open {
		return errors.New("no screen permission prompt is open")
	}
	return gate.Answer(p.ID, c)
}

// validateLook is the look tool's argument check.
func validateLook(args json.RawMessage) error { return look.New(look.Config{}).Validate(args) }
