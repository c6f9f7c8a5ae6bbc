package proactive

import (
	"strings"
	"time"

	"yui/app/settings"
)

// Config is the engine's settings, resolved (every default filled in).
type Config struct {
	Zone         *time.Location // the user's zone (nil: time.Local)
	Quiet        bool           // the global quiet companion switch (Target then decides per character)
	Greetings    bool           // part-of-day and welcome-back greetings
	DayParts     [4]int         // minutes after midnight: morning, afternoon, evening, night
	Away         time.Duration
	Checkins     []time.Duration // nil: no check-ins
	AppNotes     bool
	Stretch      time.Duration
	QuietGap     time.Duration
	Debounce     time.Duration
	AppDebounce  time.Duration // the app notes' shared debounce (at least Debounce)
	HourlyCap    int
	QuietHours   bool
	QuietFrom    int // minutes after midnight
	QuietTo      int
	MutedSpeaks  bool     // WhenMuted "text"
	CallApps     []string // lower case
	Schedules    []settings.Schedule
	AnswerWindow time.Duration // a check-in not answered within it is ignored
	ScheduleLate time.Duration // a reminder still fires this late
	SwitchLate   time.Duration // a switch to a new app is news this long
	MaxBackoff   int           // the check-in gaps double at most this many times
}

// Fixed parts of the manners (docs/proactive.md).
const (
	AnswerWindow = 10 * time.Minute
	ScheduleLate = 60 * time.Minute
	SwitchLate   = 2 * time.Minute
	MaxBackoff   = 3 // ×8
)

// ConfigFrom resolves the settings' proactive section.
func ConfigFrom(p settings.Proactive) Config {
	min := func(v, def int) time.Duration {
		if v <= 0 {
			v = def
		}
		return time.Duration(v) * time.Minute
	}
	c := Config{
		Quiet:     p.Quiet,
		Greetings: !p.GreetingsOff,
		DayParts: [4]int{settings.ClockMinutes(p.Morning, settings.DefaultDayParts[0]),
			settings.ClockMinutes(p.Afternoon, settings.DefaultDayParts[1]),
			settings.ClockMinutes(p.Evening, settings.DefaultDayParts[2]),
			settings.ClockMinutes(p.Night, settings.DefaultDayParts[3])},
		Away:         min(p.AwayMinutes, settings.DefaultAwayMinutes),
		AppNotes:     !p.AppNotesOff,
		Stretch:      min(p.StretchMinutes, settings.DefaultStretchMinutes),
		QuietGap:     min(p.QuietGapMinutes, settings.DefaultQuietGapMinutes),
		Debounce:     min(p.DebounceMinutes, settings.DefaultDebounceMinutes),
		HourlyCap:    p.HourlyCap,
		QuietHours:   !p.QuietHoursOff,
		QuietFrom:    settings.ClockMinutes(p.QuietFrom, settings.DefaultQuietFrom),
		QuietTo:      settings.ClockMinutes(p.QuietTo, settings.DefaultQuietTo),
		MutedSpeaks:  p.WhenMuted == "text",
		Schedules:    p.Schedules,
		AnswerWindow: AnswerWindow,
		ScheduleLate: ScheduleLate,
		SwitchLate:   SwitchLate,
		MaxBackoff:   MaxBackoff,
		AppDebounce:  AppDebounce,
	}
	if c.HourlyCap <= 0 {
		c.HourlyCap = settings.DefaultHourlyCap
	}
	if !p.CheckinsOff {
		ms := p.CheckinMinutes
		if len(ms) == 0 {
			ms = settings.DefaultCheckinMinutes
		}
		for _, m := range ms {
			c.Checkins = append(c.Checkins, time.Duration(m)*time.Minute)
		}
	}
	apps := p.CallApps
	if apps == nil {
		apps = settings.DefaultCallApps
	}
	for _, a := range apps {
		c.CallApps = append(c.CallApps, strings.ToLower(strings.TrimSpace(a)))
	}
	return c
}
