package demobackend

import (
	"strconv"
	"strings"
)

// Proactive turns (docs/proactive.md): a turn the client started with an
// empty utterance and a `trigger: proactive "<label>" (user idle Nmin)` or
// `trigger: schedule "<label>"` line (and maybe a `note:`) gets a short,
// in-character answer to its label: a greeting, a check-in, a note about
// the user's app, the reminder said back.

// proactiveTrigger is what the trigger and note lines say.
type proactiveTrigger struct {
	schedule bool
	label    string
	note     string
	idleMin  int // -1 when not said
}

// The trigger lines' starts.
const (
	proactivePrefix = `trigger: proactive "`
	schedulePrefix  = `trigger: schedule "`
)

// proactivePlan reads a proactive or schedule trigger from clientContext.
func proactivePlan(clientContext string) (plan, bool) {
	var tr proactiveTrigger
	found := false
	for _, l := range strings.Split(clientContext, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, proactivePrefix), strings.HasPrefix(l, schedulePrefix):
			tr.schedule = strings.HasPrefix(l, schedulePrefix)
			rest := l[strings.Index(l, `"`)+1:]
			end := strings.LastIndex(rest, `"`)
			if end < 0 {
				continue
			}
			tr.label, tr.idleMin = rest[:end], -1
			if m, ok := strings.CutPrefix(strings.TrimSpace(rest[end+1:]), "(user idle "); ok {
				if n, err := strconv.Atoi(strings.TrimSuffix(m, "min)")); err == nil {
					tr.idleMin = n
				}
			}
			found = true
		case found && strings.HasPrefix(l, "note: "):
			tr.note = strings.TrimPrefix(l, "note: ")
		}
	}
	return plan{kind: kindProactive, trigger: tr}, found
}

// proactiveLines are her answer to a proactive turn.
func proactiveLines(w phrasebook, t proactiveTrigger) []line {
	if t.schedule {
		return []line{
			{text: w.s("proactive.reminder", "label", t.label), emotion: "happy", motion: "idle_lively"},
			{text: w.s("proactive.reminder_why"), emotion: "relaxed"},
		}
	}
	switch t.label {
	case "good morning":
		return []line{{text: w.s("proactive.good_morning"), emotion: "happy", motion: "happy", tone: "joyfully"}}
	case "good afternoon":
		return []line{{text: w.s("proactive.good_afternoon"), emotion: "curious"}}
	case "good evening":
		return []line{{text: w.s("proactive.good_evening"), emotion: "relaxed", motion: "calm", tone: "gently"}}
	case "good night":
		return []line{{text: w.s("proactive.good_night"), emotion: "sleepy", motion: "calm", tone: "softly"}}
	case "welcome back":
		return []line{{text: w.s("proactive.welcome_back"), emotion: "happy", motion: "happy"}}
	case "check-in":
		if t.idleMin >= 60 {
			return []line{{text: w.s("proactive.check_in_long"), emotion: "curious", tone: "gently"}}
		}
		return []line{{text: w.s("proactive.check_in"), emotion: "curious"}}
	case "long stretch":
		app := between(t.note, "has been in ", " for ")
		return []line{{text: w.s("proactive.long_stretch", "app", orThat(w, app)), emotion: "relaxed", motion: "calm"}}
	case "new app":
		_, app, _ := strings.Cut(t.note, "switched to ")
		return []line{{text: w.s("proactive.new_app", "app", orThat(w, app)), emotion: "curious", motion: "idle_lively"}}
	}
	return []line{{text: w.s("proactive.hello"), emotion: "happy"}}
}

func (b *Backend) playProactive(r *run, p plan) bool {
	why := "the client started this turn (" + p.trigger.label + "). "
	if p.trigger.schedule {
		why = "a reminder the user set: " + p.trigger.label + ". "
	}
	lines := proactiveLines(r.w, p.trigger)
	return r.think(thinkStep, "No text: "+why, "Keep it short and kind.") &&
		r.say(speakStep, lines...) &&
		r.closeWith(false, r.pal.segment(line{emotion: lines[len(lines)-1].emotion}))
}

// between is the text of s between after and before, or "".
func between(s, after, before string) string {
	_, rest, ok := strings.Cut(s, after)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, before)
	return strings.TrimSpace(v)
}

func orThat(w phrasebook, app string) string {
	if app == "" {
		return w.s("proactive.that_app")
	}
	return app
}
