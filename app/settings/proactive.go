package settings

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Proactive is when a character speaks first (docs/proactive.md). Every
// zero value is the default, so a file without the section, or with only
// some fields, gets the defaults for the rest.
type Proactive struct {
	// Quiet is the quiet companion switch for every character (the tray,
	// the pet menu and the settings window): nobody speaks first. It
	// overrides each preset's Quiet.
	Quiet bool `json:"quiet,omitempty"`
	// GreetingsOff turns off the greetings (part of the day, coming back).
	GreetingsOff bool `json:"greetings_off,omitempty"`
	// Morning, Afternoon, Evening and Night are when each part of the day
	// starts, "HH:MM" local time; "" is the default (06:00, 12:00, 18:00,
	// 21:00).
	Morning   string `json:"morning,omitempty"`
	Afternoon string `json:"afternoon,omitempty"`
	Evening   string `json:"evening,omitempty"`
	Night     string `json:"night,omitempty"`
	// AwayMinutes is how long without any input counts as away (then
	// input again is coming back); 0 is 20.
	AwayMinutes int `json:"away_minutes,omitempty"`
	// CheckinsOff turns off the idle check-ins.
	CheckinsOff bool `json:"checkins_off,omitempty"`
	// CheckinMinutes are the check-ins of one gap: minutes without
	// talking to her, increasing; nil is [30, 90].
	CheckinMinutes []int `json:"checkin_minutes,omitempty"`
	// AppNotesOff turns off the notes on the user's app (a long stretch
	// in one app, a switch to a new one). They also need the preset's
	// "Tell the agent which app I'm using".
	AppNotesOff bool `json:"app_notes_off,omitempty"`
	// StretchMinutes is a long stretch in one app; 0 is 90.
	StretchMinutes int `json:"stretch_minutes,omitempty"`
	// QuietGapMinutes is the quiet after every turn; 0 is 5.
	QuietGapMinutes int `json:"quiet_gap_minutes,omitempty"`
	// DebounceMinutes is the least time between two turns of one source;
	// 0 is 20.
	DebounceMinutes int `json:"debounce_minutes,omitempty"`
	// HourlyCap is the most proactive turns in any hour; 0 is 2.
	HourlyCap int `json:"hourly_cap,omitempty"`
	// QuietHoursOff lets her speak first at any hour.
	QuietHoursOff bool `json:"quiet_hours_off,omitempty"`
	// QuietFrom and QuietTo are the quiet hours, "HH:MM" local time (may
	// cross midnight); "" is 22:30 and 07:30.
	QuietFrom string `json:"quiet_from,omitempty"`
	QuietTo   string `json:"quiet_to,omitempty"`
	// WhenMuted is "quiet" (the default, also ""): a muted character does
	// not speak first; "text": she does, in her bubble only.
	WhenMuted string `json:"when_muted,omitempty"`
	// CallApps are app or window-title fragments (case-insensitive) of
	// screen-share and call apps: nobody speaks first while one is
	// frontmost. nil is DefaultCallApps.
	CallApps []string `json:"call_apps,omitempty"`
	// Schedules are the user's reminders.
	Schedules []Schedule `json:"schedules,omitempty"`
}

// Schedule is one reminder: a label at a time, once on a date or
// repeated on some days.
type Schedule struct {
	// Label is what the reminder is about (sent as the trigger's label).
	Label string `json:"label"`
	// At is "HH:MM" local time.
	At string `json:"at"`
	// Date ("YYYY-MM-DD") makes it a one-off on that day.
	Date string `json:"date,omitempty"`
	// Days ("mon" … "sun") repeat it on those days; empty with no Date is
	// every day.
	Days []string `json:"days,omitempty"`
}

// Proactive defaults (docs/proactive.md).
var (
	DefaultDayParts       = [4]string{"06:00", "12:00", "18:00", "21:00"}
	DefaultCheckinMinutes = []int{30, 90}
	DefaultCallApps       = []string{"zoom", "teams", "webex", "skype", "jitsi", "obs", "google meet", "meet - ", "discord"}
)

// Proactive defaults in minutes and counts.
const (
	DefaultAwayMinutes     = 20
	DefaultStretchMinutes  = 90
	DefaultQuietGapMinutes = 5
	DefaultDebounceMinutes = 20
	DefaultHourlyCap       = 2
	DefaultQuietFrom       = "22:30"
	DefaultQuietTo         = "07:30"
)

// WhenMutedModes are the accepted values of Proactive.WhenMuted.
var WhenMutedModes = []string{"", "quiet", "text"}

// Weekdays are the accepted values of Schedule.Days, Sunday first (as
// time.Weekday counts).
var Weekdays = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

var clockPattern = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// ClockMinutes reads "HH:MM" as minutes after midnight; "" is def.
func ClockMinutes(s, def string) int {
	if s == "" {
		s = def
	}
	if !clockPattern.MatchString(s) {
		return 0
	}
	return int(s[0]-'0')*600 + int(s[1]-'0')*60 + int(s[3]-'0')*10 + int(s[4]-'0')
}

// validateProactive checks the proactive section; a wrong value is
// refused naming its field (proactive.<field>).
func validateProactive(p Proactive) error {
	if err := validateProactiveClocks(p); err != nil {
		return err
	}
	if err := validateProactiveNumbers(p); err != nil {
		return err
	}
	return validateProactiveLists(p)
}

func proactiveField(field, reason string) error {
	return &FieldError{Field: "proactive." + field, Reason: reason}
}

// validateProactiveClocks: every "HH:MM", the parts of the day increasing.
func validateProactiveClocks(p Proactive) error {
	clocks := []struct{ name, v string }{{"morning", p.Morning}, {"afternoon", p.Afternoon}, {"evening", p.Evening},
		{"night", p.Night}, {"quiet_from", p.QuietFrom}, {"quiet_to", p.QuietTo}}
	for _, c := range clocks {
		if c.v != "" && !clockPattern.MatchString(c.v) {
			return proactiveField(c.name, fmt.Sprintf("%q is not a time such as 07:30", c.v))
		}
	}
	parts := []int{ClockMinutes(p.Morning, DefaultDayParts[0]), ClockMinutes(p.Afternoon, DefaultDayParts[1]),
		ClockMinutes(p.Evening, DefaultDayParts[2]), ClockMinutes(p.Night, DefaultDayParts[3])}
	for i := 1; i < len(parts); i++ {
		if parts[i] <= parts[i-1] {
			return proactiveField(clocks[i].name, "must be later than "+clocks[i-1].name)
		}
	}
	return nil
}

// validateProactiveNumbers: minutes and counts in their ranges (0 is the
// default), the muted mode.
func validateProactiveNumbers(p Proactive) error {
	for _, n := range []struct {
		name   string
		v, max int
	}{{"away_minutes", p.AwayMinutes, 240}, {"stretch_minutes", p.StretchMinutes, 600},
		{"quiet_gap_minutes", p.QuietGapMinutes, 240}, {"debounce_minutes", p.DebounceMinutes, 600},
		{"hourly_cap", p.HourlyCap, 20}} {
		if n.v < 0 || n.v > n.max {
			return proactiveField(n.name, fmt.Sprintf("must be 1 to %d", n.max))
		}
	}
	if !slices.Contains(WhenMutedModes, p.WhenMuted) {
		return proactiveField("when_muted", fmt.Sprintf("%q is not quiet or text", p.WhenMuted))
	}
	return nil
}

// validateProactiveLists: the check-ins, the call apps, the reminders.
func validateProactiveLists(p Proactive) error {
	switch {
	case len(p.CheckinMinutes) > 6:
		return proactiveField("checkin_minutes", "at most 6 check-ins")
	case len(p.CallApps) > 32:
		return proactiveField("call_apps", "at most 32 entries")
	case len(p.Schedules) > 50:
		return proactiveField("schedules", "at most 50 reminders")
	}
	for i, m := range p.CheckinMinutes {
		if m < 1 || m > 1440 || (i > 0 && m <= p.CheckinMinutes[i-1]) {
			return proactiveField(fmt.Sprintf("checkin_minutes[%d]", i), "minutes from 1 to 1440, each later than the one before")
		}
	}
	for i, a := range p.CallApps {
		if strings.TrimSpace(a) == "" || utf8.RuneCountInString(a) > 64 || hasControl(a) {
			return proactiveField(fmt.Sprintf("call_apps[%d]", i), "one line of 1 to 64 characters")
		}
	}
	for i, s := range p.Schedules {
		if err := validateSchedule(s); err != nil {
			fe := err.(*FieldError)
			fe.Field = fmt.Sprintf("proactive.schedules[%d].%s", i, fe.Field)
			return fe
		}
	}
	return nil
}

func validateSchedule(s Schedule) error {
	f := func(field, reason string) error { return &FieldError{Field: field, Reason: reason} }
	switch {
	case strings.TrimSpace(s.Label) == "" || utf8.RuneCountInString(s.Label) > 80 || hasControl(s.Label):
		return f("label", "one line of 1 to 80 characters")
	case !clockPattern.MatchString(s.At):
		return f("at", fmt.Sprintf("%q is not a time such as 07:30", s.At))
	case s.Date != "" && len(s.Days) > 0:
		return f("days", "a reminder on a date does not repeat")
	}
	if s.Date != "" {
		if _, err := time.Parse(time.DateOnly, s.Date); err != nil {
			return f("date", fmt.Sprintf("%q is not a date such as 2026-12-24", s.Date))
		}
	}
	for j, d := range s.Days {
		if !slices.Contains(Weekdays, d) {
			return f(fmt.Sprintf("days[%d]", j), fmt.Sprintf("%q is not one of %s", d, strings.Join(Weekdays, ", ")))
		}
	}
	return nil
}
