package proactive

import (
	"slices"
	"time"

	"yui/app/settings"
)

// Wall-clock arithmetic: every rule on the hour of the day (parts of the
// day, quiet hours, reminders) reads the local wall clock of one instant,
// so a DST change moves nothing by an hour and a span may cross midnight.

// minuteOfDay is t's local wall-clock minute after midnight.
func minuteOfDay(t time.Time) int { return t.Hour()*60 + t.Minute() }

// inSpan reports whether minute m is in [from, to), which crosses
// midnight when to < from; from == to is no span.
func inSpan(m, from, to int) bool {
	if from <= to {
		return from <= m && m < to
	}
	return m >= from || m < to
}

// partNames are the parts of the day, as Config.DayParts orders them.
var partNames = [4]string{"morning", "afternoon", "evening", "night"}

// partOf is the part of the day of local time t and the day it belongs
// to: the night runs past midnight to the morning's start.
func partOf(t time.Time, parts [4]int) (part int, day string) {
	m := minuteOfDay(t)
	if m < parts[0] {
		y, mo, d := t.Date()
		return 3, time.Date(y, mo, d-1, 12, 0, 0, 0, t.Location()).Format(time.DateOnly)
	}
	part = 0
	for i := 1; i < len(parts); i++ {
		if m >= parts[i] {
			part = i
		}
	}
	return part, t.Format(time.DateOnly)
}

// scheduleAt is the instant reminder s is due on local t's day, and
// whether it is due that day at all.
func scheduleAt(s settings.Schedule, t time.Time) (time.Time, bool) {
	day := t.Format(time.DateOnly)
	if s.Date != "" && s.Date != day {
		return time.Time{}, false
	}
	if s.Date == "" && len(s.Days) > 0 && !slices.Contains(s.Days, settings.Weekdays[t.Weekday()]) {
		return time.Time{}, false
	}
	m := settings.ClockMinutes(s.At, "00:00")
	y, mo, d := t.Date()
	// time.Date normalises a wall time a DST change skips (02:30 on a
	// spring-forward night is 03:30) and picks the first of a repeated one.
	return time.Date(y, mo, d, m/60, m%60, 0, 0, t.Location()), true
}
