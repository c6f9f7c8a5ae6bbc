package settings

import "fmt"

// LookOptions are a character's options for a VRM look (docs/looks.md,
// "Options"); each "" keeps the look's own default (its look.json).
type LookOptions struct {
	// Breathing is LookBreathingLow (a slow breath at a few frames a
	// second while idle), LookBreathingOff or "".
	Breathing string `json:"breathing,omitempty"`
	// TouchTurns is LookOn (a pat or a poke starts a turn: trigger touch
	// <where>), LookOff or "".
	TouchTurns string `json:"touch_turns,omitempty"`
}

// The values of LookOptions' fields ("" is the look's default).
const (
	LookBreathingLow = "low"
	LookBreathingOff = "off"
	LookOn           = "on"
	LookOff          = "off"
)

// BreathingOr is the breathing the character's look shows: hers, or the
// look's own (look) when she keeps its default.
func (o LookOptions) BreathingOr(look string) string {
	if o.Breathing != "" {
		return o.Breathing
	}
	return look
}

// TouchTurnsOr is whether a touch starts a turn: her option, or the look's
// own (look) when she keeps its default.
func (o LookOptions) TouchTurnsOr(look bool) bool {
	switch o.TouchTurns {
	case LookOn:
		return true
	case LookOff:
		return false
	}
	return look
}

// validateLookOptions checks a preset's look options; fields are named
// relative to the preset ("look_options.breathing").
func validateLookOptions(o LookOptions) error {
	switch {
	case o.Breathing != "" && o.Breathing != LookBreathingLow && o.Breathing != LookBreathingOff:
		return &FieldError{Field: "look_options.breathing", Reason: fmt.Sprintf("%q is not one of low, off or empty (the look's own)", o.Breathing)}
	case o.TouchTurns != "" && o.TouchTurns != LookOn && o.TouchTurns != LookOff:
		return &FieldError{Field: "look_options.touch_turns", Reason: fmt.Sprintf("%q is not one of on, off or empty (the look's own)", o.TouchTurns)}
	}
	return nil
}
