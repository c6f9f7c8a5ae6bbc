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
func proactiveLines(t proactiveTrigger) []line {
	if t.schedule {
		return []line{
			{text: "Reminder time: " + t.label + "!", emotion: "happy", motion: "idle_lively"},
			{text: "You asked me to tell you, so I did.", emotion: "relaxed"},
		}
	}
	switch t.label {
	case "good morning":
		return []line{{text: "Good morning! I'm here whenever you need me.", emotion: "happy", motion: "happy", tone: "joyfully"}}
	case "good afternoon":
		return []line{{text: "Good afternoon! How's the day treating you?", emotion: "curious"}}
	case "good evening":
		return []line{{text: "Good evening. Don't forget to rest a little.", emotion: "relaxed", motion: "calm", tone: "gently"}}
	case "good night":
		return []line{{text: "Good night! It's getting late. Maybe wrap up soon?", emotion: "sleepy", motion: "calm", tone: "softly"}}
	case "welcome back":
		return []line{{text: "Welcome back! I kept your seat warm.", emotion: "happy", motion: "happy"}}
	case "check-in":
		if t.idleMin >= 60 {
			return []line{{text: "It's been a while. Need anything from me?", emotion: "curious", tone: "gently"}}
		}
		return []line{{text: "Just checking in. Still going strong?", emotion: "curious"}}
	case "long stretch":
		app := between(t.note, "has been in ", " for ")
		return []line{{text: "You've been in " + orThat(app) + " for a long time. Maybe stretch your legs?", emotion: "relaxed", motion: "calm"}}
	case "new app":
		_, app, _ := strings.Cut(t.note, "switched to ")
		return []line{{text: "Oh, " + orThat(app) + "! What are we up to?", emotion: "curious", motion: "idle_lively"}}
	}
	return []line{{text: "Hi! Just wanted to say hello.", emotion: "happy"}}
}

func (b *Backend) playProactive(r *run, p plan) bool {
	why := "the client started this turn (" + p.trigger.label + "). "
	if p.trigger.schedule {
		why = "a reminder the user set: " + p.trigger.label + ". "
	}
	lines := proactiveLines(p.trigger)
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

func orThat(app string) string {
	if app == "" {
		return "that app"
	}
	return app
}
