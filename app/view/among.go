package view

// TypeResetStanding is the settings page asking to forget one standing
// of a character (ResetStanding, settings page → core).
const TypeResetStanding = "reset_standing"

// ResetStanding names the standing to forget: the character (preset id)
// and the target ("user" or another character's preset id).
type ResetStanding struct {
	Preset string `json:"preset"`
	Target string `json:"target"`
}

// Standing is one of a character's standings as the settings window
// lists it (rate_relation).
type Standing struct {
	// Target is "user" or the other character's preset id; Name is how
	// the list names it ("You" for the user, else her name).
	Target string `json:"target"`
	Name   string `json:"name"`
	Value  int    `json:"value"`
	Band   string `json:"band"`
	// Reason is the last reason given ("" none); At epoch milliseconds.
	Reason string `json:"reason,omitempty"`
	At     int64  `json:"at"`
}
