package proactive

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // Europe/Berlin on every machine

	"yui/app/settings"
)

// world is every source at once, set by a test.
type world struct {
	mu        sync.Mutex
	lastInput time.Time
	noInput   bool // the OS does not tell
	typing    bool
	app       string
	title     string
	appSince  time.Time
	full      bool
	speaking  bool
	running   bool
	quiet     bool // every character quiet
	locked    bool // the screen is locked
	target    Target
}

func (w *world) Locked() bool { w.mu.Lock(); defer w.mu.Unlock(); return w.locked }

func (w *world) Idle() (time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.noInput {
		return 0, false
	}
	return time.Since(w.lastInput), true
}

func (w *world) Typing() bool { w.mu.Lock(); defer w.mu.Unlock(); return w.typing }

func (w *world) Frontmost() (string, string, time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.app, w.title, w.appSince, w.app != ""
}

func (w *world) Fullscreen() bool  { w.mu.Lock(); defer w.mu.Unlock(); return w.full }
func (w *world) Speaking() bool    { w.mu.Lock(); defer w.mu.Unlock(); return w.speaking }
func (w *world) TurnRunning() bool { w.mu.Lock(); defer w.mu.Unlock(); return w.running }
func (w *world) Target() (Target, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.target, !w.quiet
}

// touch is input now.
func (w *world) touch() { w.mu.Lock(); w.lastInput = time.Now(); w.mu.Unlock() }

// use makes app frontmost from now.
func (w *world) use(app string) {
	w.mu.Lock()
	w.app, w.title, w.appSince = app, app, time.Now()
	w.mu.Unlock()
}

// rig is an engine on a world, with its log.
type rig struct {
	t     *testing.T
	w     *world
	e     *Engine
	log   *bytes.Buffer
	fires []Fire
	at    []time.Time
	// active: the user touches the input at every tick (present, not away).
	active bool
}

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	l, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// newRig makes an engine with the defaults changed by edit, in zone loc,
// and sleeps until the local wall time start ("2000-01-03 09:00").
func newRig(t *testing.T, loc *time.Location, start string, edit func(*settings.Proactive)) *rig {
	t.Helper()
	var p settings.Proactive
	if edit != nil {
		edit(&p)
	}
	if err := validateProactiveForTest(p); err != nil {
		t.Fatal(err)
	}
	cfg := ConfigFrom(p)
	cfg.Zone = loc
	sleepUntil(t, loc, start)
	w := &world{lastInput: time.Now(), target: Target{ID: "p-00000001", TellsApp: true}}
	buf := &bytes.Buffer{}
	lg := slog.New(slog.NewJSONHandler(buf, nil))
	return &rig{t: t, w: w, e: New(cfg, Sources{Input: w, Screen: w, Cast: w}, lg), log: buf, active: true}
}

func validateProactiveForTest(p settings.Proactive) error {
	s := settings.Defaults()
	s.Proactive = p
	return settings.Validate(&s)
}

func sleepUntil(t *testing.T, loc *time.Location, wall string) {
	t.Helper()
	at, err := time.ParseInLocation("2006-01-02 15:04", wall, loc)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Until(at); d > 0 {
		time.Sleep(d)
	} else if d < 0 {
		t.Fatalf("%s is in the past (%s)", wall, time.Now().In(loc))
	}
}

// run ticks every TickEvery for d and returns the fires.
func (r *rig) run(d time.Duration) []Fire {
	r.t.Helper()
	n := len(r.fires)
	for end := time.Now().Add(d); time.Now().Before(end); {
		if r.active {
			r.w.touch()
		}
		if f, ok := r.e.Tick(time.Now()); ok {
			r.fires = append(r.fires, f)
			r.at = append(r.at, time.Now())
		}
		time.Sleep(TickEvery)
	}
	return r.fires[n:]
}

// until runs to local wall time wall.
func (r *rig) until(wall string) []Fire {
	r.t.Helper()
	at, err := time.ParseInLocation("2006-01-02 15:04", wall, r.e.cfg.Zone)
	if err != nil {
		r.t.Fatal(err)
	}
	return r.run(time.Until(at))
}

// tick is one tick now.
func (r *rig) tick() (Fire, bool) {
	if r.active {
		r.w.touch()
	}
	f, ok := r.e.Tick(time.Now())
	if ok {
		r.fires = append(r.fires, f)
		r.at = append(r.at, time.Now())
	}
	return f, ok
}

// sources lists the fires' sources.
func sources(fs []Fire) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Source)
	}
	return strings.Join(out, ",")
}

// skipped lists the reasons logged for source, in order.
func (r *rig) skipped(source string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(r.log.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == "proactive_skipped" && m["source"] == source {
			out = append(out, m["reason"].(string))
		}
	}
	return out
}

func (r *rig) wantOne(fs []Fire, source string) Fire {
	r.t.Helper()
	if len(fs) != 1 || fs[0].Source != source {
		r.t.Fatalf("fires %q at %v, want one %s", sources(fs), r.at, source)
	}
	return fs[0]
}

func (r *rig) wantNone(fs []Fire) {
	r.t.Helper()
	if len(fs) != 0 {
		r.t.Fatalf("fires %q, want none", sources(fs))
	}
}
