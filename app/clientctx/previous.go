package clientctx

import (
	"fmt"
	"time"
	"unicode/utf8"
)

// MaxQuote is the most code points of spoken or unspoken text a record keeps.
const MaxQuote = 50

// Outcome is how a turn went wrong.
type Outcome string

// The outcomes a previous-turn record can carry.
const (
	Interrupted Outcome = "interrupted"
	Failed      Outcome = "failed"
)

// Record is the previous-turn record.
type Record struct {
	Trigger  string    `json:"trigger"` // trigger label, e.g. user.text_submitted
	Outcome  Outcome   `json:"outcome"`
	At       time.Time `json:"at"`
	Spoken   string    `json:"spoken,omitempty"`
	Unspoken string    `json:"unspoken,omitempty"`
	TurnID   string    `json:"turn_id,omitempty"` // push: the failed client turn
}

// NewInterrupted records a cut turn, cutting spoken to its last and
// unspoken to its first MaxQuote code points.
func NewInterrupted(trigger string, at time.Time, spoken, unspoken string) Record {
	return Record{
		Trigger:  trigger,
		Outcome:  Interrupted,
		At:       at,
		Spoken:   CutTail(Sanitize(spoken), MaxQuote),
		Unspoken: CutHead(Sanitize(unspoken), MaxQuote),
	}
}

// NewFailed records a failed turn; turnID may be empty.
func NewFailed(trigger string, at time.Time, turnID string) Record {
	return Record{Trigger: trigger, Outcome: Failed, At: at, TurnID: turnID}
}

// Valid reports whether r can be reported: a known outcome and a time.
func (r Record) Valid() error {
	if r.Outcome != Interrupted && r.Outcome != Failed {
		return fmt.Errorf("clientctx: record outcome %q is neither interrupted nor failed", r.Outcome)
	}
	if r.At.IsZero() {
		return fmt.Errorf("clientctx: record has no time")
	}
	return nil
}

// CutHead keeps the first n code points of s; a cut value ends in "…"
// within the n.
func CutHead(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	i, count := 0, 0
	for i < len(s) && count < n-1 {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
		count++
	}
	return s[:i] + "…"
}

// CutTail keeps the last n code points of s; a cut value starts with "…"
// within the n.
func CutTail(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	i, count := len(s), 0
	for i > 0 && count < n-1 {
		_, w := utf8.DecodeLastRuneInString(s[:i])
		i -= w
		count++
	}
	return "…" + s[i:]
}

// line renders the previous: line at now.
func (r Record) line(now time.Time) string {
	s := "previous: " + Sanitize(r.Trigger) + " " + string(r.Outcome) + " (" + minutesText(now, r.At) + " ago)"
	if r.Outcome != Interrupted {
		return s
	}
	sep := ", "
	if sp := Sanitize(r.Spoken); sp != "" {
		s += sep + `spoken: "` + sp + `"`
		sep = " "
	}
	if un := Sanitize(r.Unspoken); un != "" {
		s += sep + `unspoken: "` + un + `"`
	}
	return s
}
