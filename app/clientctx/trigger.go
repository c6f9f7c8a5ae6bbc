package clientctx

import (
	"time"
)

// TriggerKind says who started a turn.
type TriggerKind int

// Trigger kinds of client-notes §3.
const (
	UserMessage TriggerKind = iota // typed or spoken by the user
	Proactive                      // the client decided to speak up
	Schedule                       // a scheduled prompt
	Character                      // another character addressed this one
)

// Trigger is the trigger line (and optional note) of a block.
type Trigger struct {
	Kind      TriggerKind
	Label     string    // Proactive and Schedule
	IdleSince time.Time // Proactive: when the user was last active; zero = unknown
	Name      string    // Character: the addressing character's name
	Note      string    // optional note line
}

// FromUser is the trigger of a typed or spoken turn.
func FromUser() Trigger { return Trigger{Kind: UserMessage} }

// FromProactive is the trigger of a proactive turn.
func FromProactive(label string, idleSince time.Time) Trigger {
	return Trigger{Kind: Proactive, Label: label, IdleSince: idleSince}
}

// FromSchedule is the trigger of a scheduled turn.
func FromSchedule(label string) Trigger { return Trigger{Kind: Schedule, Label: label} }

// FromCharacter is the trigger of a turn another character started.
func FromCharacter(name string) Trigger { return Trigger{Kind: Character, Name: name} }

// WithNote returns t with a note line.
func (t Trigger) WithNote(note string) Trigger {
	t.Note = note
	return t
}

// lines renders the trigger line and the note line, if any.
func (t Trigger) lines(now time.Time) []string {
	var line string
	switch t.Kind {
	case Proactive:
		line = `trigger: proactive "` + Sanitize(t.Label) + `"`
		if !t.IdleSince.IsZero() {
			line += " (user idle " + minutesText(now, t.IdleSince) + ")"
		}
	case Schedule:
		line = `trigger: schedule "` + Sanitize(t.Label) + `"`
	case Character:
		line = "trigger: character " + Sanitize(t.Name)
	default:
		line = "trigger: user message"
	}
	out := []string{line}
	if note := Sanitize(t.Note); note != "" {
		out = append(out, "note: "+note)
	}
	return out
}
