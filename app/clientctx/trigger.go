package clientctx

import (
	"strconv"
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
	Permission                     // the user answered a screen permission prompt
	Touch                          // the user patted or poked the character (a VRM look's option)
)

// The answers a Permission trigger reports (Trigger.Answer).
const (
	AllowedOnce   = "allowed once"
	AllowedAlways = "allowed always"
	Denied        = "denied"
)

// Trigger is the trigger line (and optional note) of a block.
type Trigger struct {
	Kind      TriggerKind
	Label     string    // Proactive and Schedule
	IdleSince time.Time // Proactive: when the user was last active; zero = unknown
	Name      string    // Character: the addressing character's name
	Answer    string    // Permission: AllowedOnce, AllowedAlways or Denied
	Monitor   int       // Permission: the monitor the prompt asked for
	Site      string    // Permission: the site a browser open asked for ("" for the screen)
	Where     string    // Touch: "head" or "body"
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

// FromPermission is the trigger of the turn that tells the agent the user
// answered a screen permission prompt for monitor: answer is AllowedOnce,
// AllowedAlways or Denied.
func FromPermission(answer string, monitor int) Trigger {
	return Trigger{Kind: Permission, Answer: answer, Monitor: monitor}
}

// FromSitePermission is the trigger of the turn that tells the agent the
// user answered a browser open prompt for site.
func FromSitePermission(answer, site string) Trigger {
	return Trigger{Kind: Permission, Answer: answer, Site: site}
}

// FromTouch is the trigger of the turn a touch starts (where: "head" or
// "body"; kind: "pat" or "poke"); the note says what the user did.
func FromTouch(where, kind string) Trigger {
	note := "the user poked you"
	if kind == "pat" {
		note = "the user patted you on the " + where
	}
	return Trigger{Kind: Touch, Where: where, Note: note}
}

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
	case Permission:
		if t.Site != "" {
			line = "trigger: permission browser " + Sanitize(t.Answer) + " (" + Sanitize(t.Site) + ")"
			break
		}
		line = "trigger: permission screen " + Sanitize(t.Answer) + " (monitor " + strconv.Itoa(t.Monitor) + ")"
	case Touch:
		line = "trigger: touch " + Sanitize(t.Where)
	default:
		line = "trigger: user message"
	}
	out := []string{line}
	if note := Sanitize(t.Note); note != "" {
		out = append(out, "note: "+note)
	}
	return out
}
