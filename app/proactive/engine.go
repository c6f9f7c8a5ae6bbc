package proactive

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"yui/app/clientctx"
)

// The sources of a proactive turn (the log's source=…), in the order a
// tick prefers them when several are due.
const (
	SourceSchedule = "schedule"    // a reminder the user set
	SourceGreeting = "greeting"    // the first presence in a part of the day
	SourceReturn   = "return"      // back after being away
	SourceCheckin  = "checkin"     // not talked to her for a while
	SourceStretch  = "app_stretch" // a long stretch in one app
	SourceSwitch   = "app_switch"  // a switch to an app not seen today
)

// The reasons a due turn is held back (the log's reason=…), in the order
// they are checked.
const (
	ReasonQuiet      = "quiet_companion"
	ReasonQuietHours = "quiet_hours"
	ReasonAway       = "away"
	ReasonTyping     = "typing"
	ReasonFullscreen = "fullscreen"
	ReasonCallApp    = "call_app"
	ReasonSpeaking   = "speaking"
	ReasonTurn       = "turn_running"
	ReasonHidden     = "hidden"
	ReasonOffline    = "offline"
	ReasonMuted      = "muted"
	ReasonAppNotTold = "app_not_told"
	ReasonQuietGap   = "quiet_gap"
	ReasonDebounce   = "debounce"
	ReasonHourlyCap  = "hourly_cap"
)

// Fire is a proactive turn the engine decided on.
type Fire struct {
	Source    string
	Target    string    // the character's preset id
	Label     string    // the trigger's label
	Note      string    // the trigger's note line, "" for none
	IdleSince time.Time // when the user last talked to her (or was last active); zero: not said
}

// Trigger is the fire's client_context trigger: `schedule "<label>"` for a
// reminder, `proactive "<label>" (user idle Nmin)` for the rest.
func (f Fire) Trigger() clientctx.Trigger {
	if f.Source == SourceSchedule {
		return clientctx.FromSchedule(f.Label).WithNote(f.Note)
	}
	return clientctx.FromProactive(f.Label, f.IdleSince).WithNote(f.Note)
}

// due is one turn that may fire now.
type due struct {
	source    string
	key       string // what marks it done (a day's part, a reminder's day)
	label     string
	note      string
	idleSince time.Time
	expires   time.Time // zero: while its condition holds
}

// Engine decides. Its methods may be called from any goroutine.
type Engine struct {
	src Sources
	log *slog.Logger

	mu  sync.Mutex
	cfg Config
	st  state
}

// state is what the engine remembers between ticks.
type state struct {
	started   bool
	away      bool
	awaySince time.Time // the last input before the user went away
	lastTalk  time.Time // the user last talked to her (or she greeted)
	checkinN  int       // check-ins in this gap
	backoff   int       // the gaps double this many times
	checkinAt time.Time // the last check-in, while its answer window is open
	lastEnd   time.Time // the last turn's end, any character
	lastFire  time.Time
	fired     []time.Time // the last hour's turns
	bySource  map[string]time.Time
	greeted   map[string]bool   // day|part
	reminded  map[string]bool   // a reminder's label|day
	events    map[string]*due   // the return and the switch, until they expire
	seen      map[string]string // app → the day it was last seen
	app       string
	appSince  time.Time
	stretched bool
	skipped   map[string]string // source → the reason last logged
}

// New returns an engine reading src with cfg; lg gets its decisions.
func New(cfg Config, src Sources, lg *slog.Logger) *Engine {
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	return &Engine{src: src, log: lg, cfg: cfg, st: state{bySource: map[string]time.Time{}, greeted: map[string]bool{},
		reminded: map[string]bool{}, events: map[string]*due{}, seen: map[string]string{}, skipped: map[string]string{}}}
}

// SetConfig replaces the settings (a save).
func (e *Engine) SetConfig(cfg Config) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cfg = cfg
}

// UserTalked records that the user typed or spoke to a character at now:
// a new gap starts, and a check-in answered in its window resets the
// back-off.
func (e *Engine) UserTalked(now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.st.lastTalk, e.st.checkinN = now, 0
	if !e.st.checkinAt.IsZero() && now.Sub(e.st.checkinAt) < e.cfg.AnswerWindow {
		e.st.backoff = 0
	}
	e.st.checkinAt = time.Time{}
}

// TurnEnded records that a character's turn (or her speech) ended at now:
// the quiet gap starts.
func (e *Engine) TurnEnded(now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.st.lastEnd = now
}

// Backoff is how many times the check-in gaps are doubled now.
func (e *Engine) Backoff() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.st.backoff
}

// Tick reads the sources at now and returns the turn to start, if any.
func (e *Engine) Tick(now time.Time) (Fire, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	loc := e.cfg.Zone
	if loc == nil {
		loc = time.Local
	}
	now = now.In(loc)
	if !e.st.started {
		e.st.started, e.st.lastTalk = true, now
	}
	present := e.observeInput(now)
	e.observeApp(now, present)
	for _, d := range e.candidates(now, present) {
		reason := e.hold(now, d, present)
		if reason == "" {
			return e.fire(now, d), true
		}
		if e.st.skipped[d.source] != reason {
			e.st.skipped[d.source] = reason
			e.log.Info("proactive_skipped", "reason", reason, "source", d.source, "label", d.label)
		}
	}
	return Fire{}, false
}

// PresentIdle: input within it is a user at the computer.
const PresentIdle = 5 * time.Minute

// observeInput follows away and back; it reports whether the user is at
// the computer, with input within PresentIdle (unknown input counts as
// present).
func (e *Engine) observeInput(now time.Time) bool {
	if e.src.Input == nil {
		return true
	}
	idle, ok := e.src.Input.Idle()
	if !ok {
		return true
	}
	if l, can := e.src.Input.(Locker); can && l.Locked() {
		if !e.st.away {
			e.st.away, e.st.awaySince = true, now.Add(-idle)
		}
		return false
	}
	if idle >= e.cfg.Away {
		if !e.st.away {
			e.st.away, e.st.awaySince = true, now.Add(-idle)
		}
		return false
	}
	if idle >= min(PresentIdle, e.cfg.Away) {
		return false // a pause: nobody to talk to, but not away
	}
	if e.st.away {
		e.st.away = false
		if e.cfg.Greetings {
			e.st.events[SourceReturn] = &due{source: SourceReturn, label: "welcome back", idleSince: e.st.awaySince,
				expires: now.Add(e.cfg.Debounce)}
		}
	}
	return true
}

// observeApp follows the frontmost app: a switch to an app not seen today
// is news for a while; a stretch starts with each app.
func (e *Engine) observeApp(now time.Time, present bool) {
	if e.src.Screen == nil {
		return
	}
	app, _, since, ok := e.src.Screen.Frontmost()
	if !ok || app == "" || app == e.st.app {
		return
	}
	prev, day := e.st.app, now.Format(time.DateOnly)
	e.st.app, e.st.appSince, e.st.stretched = app, since, false
	if prev != "" && e.st.seen[app] != day && present && e.cfg.AppNotes {
		e.st.events[SourceSwitch] = &due{source: SourceSwitch, key: app, label: "new app",
			note: "the user switched to " + clientctx.Sanitize(app), expires: now.Add(e.cfg.SwitchLate)}
	}
	e.st.seen[app] = day
}

// candidates are the turns due now, in the order they are preferred.
func (e *Engine) candidates(now time.Time, present bool) []due {
	var out []due
	for _, s := range e.cfg.Schedules {
		at, ok := scheduleAt(s, now)
		key := s.Label + "|" + now.Format(time.DateOnly) + "|" + s.At
		if ok && !now.Before(at) && now.Sub(at) <= e.cfg.ScheduleLate && !e.st.reminded[key] {
			out = append(out, due{source: SourceSchedule, key: key, label: s.Label})
		}
	}
	for src, d := range e.st.events {
		if !d.expires.IsZero() && now.After(d.expires) {
			delete(e.st.events, src)
			delete(e.st.skipped, src)
		}
	}
	if e.cfg.Greetings && present {
		part, day := partOf(now, e.cfg.DayParts)
		if key := day + "|" + partNames[part]; !e.st.greeted[key] {
			out = append(out, due{source: SourceGreeting, key: key, label: greetingLabels[part]})
		}
	}
	if d := e.st.events[SourceReturn]; d != nil {
		out = append(out, *d)
	}
	if !e.st.checkinAt.IsZero() && now.Sub(e.st.checkinAt) >= e.cfg.AnswerWindow {
		e.st.checkinAt = time.Time{} // ignored: the next gaps double
		e.st.backoff = min(e.st.backoff+1, e.cfg.MaxBackoff)
	}
	if present && e.st.checkinN < len(e.cfg.Checkins) {
		after := e.cfg.Checkins[e.st.checkinN] << e.st.backoff
		if now.Sub(e.st.lastTalk) >= after {
			out = append(out, due{source: SourceCheckin, key: fmt.Sprint(e.st.checkinN), label: "check-in", idleSince: e.st.lastTalk})
		}
	}
	if e.cfg.AppNotes && present && e.st.app != "" && !e.st.stretched && now.Sub(e.st.appSince) >= e.cfg.Stretch {
		mins := int(now.Sub(e.st.appSince).Round(time.Minute) / time.Minute)
		out = append(out, due{source: SourceStretch, key: e.st.app, label: "long stretch", idleSince: e.st.lastTalk,
			note: fmt.Sprintf("the user has been in %s for %dmin", clientctx.Sanitize(e.st.app), mins)})
	}
	if d := e.st.events[SourceSwitch]; d != nil {
		out = append(out, *d)
	}
	return out
}

// greetingLabels are the greetings' labels by part of the day.
var greetingLabels = [4]string{"good morning", "good afternoon", "good evening", "good night"}

// hold is why d may not fire now, or "".
func (e *Engine) hold(now time.Time, d due, present bool) string {
	t, ok := e.src.Cast.Target()
	reminder := d.source == SourceSchedule
	switch {
	case e.cfg.Quiet || !ok:
		return ReasonQuiet
	case !reminder && e.cfg.QuietHours && inSpan(minuteOfDay(now), e.cfg.QuietFrom, e.cfg.QuietTo):
		return ReasonQuietHours
	case !present:
		return ReasonAway
	case e.src.Input != nil && e.src.Input.Typing():
		return ReasonTyping
	case e.src.Screen != nil && e.src.Screen.Fullscreen():
		return ReasonFullscreen
	case e.inCallApp():
		return ReasonCallApp
	case e.src.Cast.Speaking():
		return ReasonSpeaking
	case e.src.Cast.TurnRunning():
		return ReasonTurn
	case t.Hidden:
		return ReasonHidden
	case t.Offline:
		return ReasonOffline
	case t.Muted && !e.cfg.MutedSpeaks:
		return ReasonMuted
	case (d.source == SourceStretch || d.source == SourceSwitch) && !t.TellsApp:
		return ReasonAppNotTold
	case within(now, e.st.lastEnd, e.cfg.QuietGap) || within(now, e.st.lastFire, e.cfg.QuietGap):
		return ReasonQuietGap
	case !reminder && within(now, e.st.bySource[debounceKey(d.source)], e.debounce(d.source)):
		return ReasonDebounce
	case !reminder && e.lastHour(now) >= e.cfg.HourlyCap:
		return ReasonHourlyCap
	}
	return ""
}

// AppDebounce is the debounce of the two app notes together: at most one
// note on the user's app an hour.
const AppDebounce = time.Hour

// debounceKey: the app notes share one debounce.
func debounceKey(source string) string {
	if source == SourceStretch || source == SourceSwitch {
		return "app"
	}
	return source
}

func (e *Engine) debounce(source string) time.Duration {
	if debounceKey(source) == "app" {
		return max(e.cfg.Debounce, e.cfg.AppDebounce)
	}
	return e.cfg.Debounce
}

// within reports whether at is set and less than d before now.
func within(now, at time.Time, d time.Duration) bool { return !at.IsZero() && now.Sub(at) < d }

// lastHour counts the turns of the hour before now (and forgets older).
func (e *Engine) lastHour(now time.Time) int {
	e.st.fired = slices.DeleteFunc(e.st.fired, func(t time.Time) bool { return now.Sub(t) >= time.Hour })
	return len(e.st.fired)
}

// inCallApp reports whether the frontmost app or title names a call or
// screen-share app.
func (e *Engine) inCallApp() bool {
	if e.src.Screen == nil {
		return false
	}
	app, title, _, ok := e.src.Screen.Frontmost()
	if !ok {
		return false
	}
	app, title = strings.ToLower(app), strings.ToLower(title)
	for _, c := range e.cfg.CallApps {
		if c != "" && (strings.Contains(app, c) || strings.Contains(title, c)) {
			return true
		}
	}
	return false
}

// fire records d as started and returns it.
func (e *Engine) fire(now time.Time, d due) Fire {
	t, _ := e.src.Cast.Target()
	e.st.fired = append(e.st.fired, now)
	e.st.lastFire = now
	e.st.bySource[debounceKey(d.source)] = now
	delete(e.st.skipped, d.source)
	switch d.source {
	case SourceSchedule:
		e.st.reminded[d.key] = true
	case SourceGreeting, SourceReturn:
		// One greeting covers both; she has just spoken to the user, so
		// the check-in gap starts again.
		part, day := partOf(now, e.cfg.DayParts)
		e.st.greeted[day+"|"+partNames[part]] = true
		delete(e.st.events, SourceReturn)
		e.st.lastTalk, e.st.checkinN = now, 0
	case SourceCheckin:
		e.st.checkinN++
		e.st.checkinAt = now
	case SourceStretch:
		e.st.stretched = true
	case SourceSwitch:
		delete(e.st.events, SourceSwitch)
	}
	f := Fire{Source: d.source, Target: t.ID, Label: d.label, Note: d.note, IdleSince: d.idleSince}
	e.log.Info("proactive_fired", "source", d.source, "label", d.label, "target", t.ID, "backoff", e.st.backoff)
	return f
}
