package proactive

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/settings"
)

// Each guardrail holds a due greeting back, says why in the log, and lets
// it go once lifted.
func TestEachGuardrailSuppresses(t *testing.T) {
	cases := []struct {
		reason string
		set    func(r *rig, on bool)
	}{
		{ReasonQuiet, func(r *rig, on bool) { r.e.cfg.Quiet = on }},
		{ReasonQuiet, func(r *rig, on bool) { r.w.quiet = on }}, // every character's own switch
		{ReasonTyping, func(r *rig, on bool) { r.w.typing = on }},
		{ReasonFullscreen, func(r *rig, on bool) { r.w.full = on }},
		{ReasonCallApp, func(r *rig, on bool) {
			if on {
				r.w.app, r.w.title = "firefox", "Meet - abc-defg-hij"
			} else {
				r.w.app, r.w.title = "", ""
			}
		}},
		{ReasonCallApp, func(r *rig, on bool) {
			if on {
				r.w.app, r.w.title = "zoom", "Zoom Meeting"
			} else {
				r.w.app, r.w.title = "", ""
			}
		}},
		{ReasonSpeaking, func(r *rig, on bool) { r.w.speaking = on }},
		{ReasonTurn, func(r *rig, on bool) { r.w.running = on }},
		{ReasonHidden, func(r *rig, on bool) { r.w.target.Hidden = on }},
		{ReasonOffline, func(r *rig, on bool) { r.w.target.Offline = on }},
		{ReasonMuted, func(r *rig, on bool) { r.w.target.Muted = on }},
		{ReasonQuietGap, func(r *rig, on bool) {
			if on {
				r.e.TurnEnded(time.Now())
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(t, time.UTC, "2000-01-03 09:00", func(p *settings.Proactive) { p.CheckinsOff = true })
				c.set(r, true)
				r.wantNone(r.run(2 * time.Minute))
				if got := r.skipped(SourceGreeting); len(got) != 1 || got[0] != c.reason {
					t.Fatalf("skipped %v, want [%s] (logged once)", got, c.reason)
				}
				c.set(r, false)
				r.wantOne(r.run(4*time.Minute), SourceGreeting) // the quiet gap's rest included
			})
		})
	}
}

// Muted with "text" chosen, she still speaks first (in her bubble).
func TestMutedWithTextSpeaks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", func(p *settings.Proactive) { p.WhenMuted = "text" })
		r.w.target.Muted = true
		r.wantOne(r.run(time.Minute), SourceGreeting)
	})
}

// Without the OS's input idle she is never held back as away or typing.
func TestUnknownInputIsPresent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", nil)
		r.w.noInput = true
		r.wantOne(r.run(time.Minute), SourceGreeting)
	})
}

// Quiet hours hold every trigger but a reminder from 22:30 to 07:30,
// across midnight.
func TestQuietHoursAcrossMidnight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 22:00", func(p *settings.Proactive) {
			p.CheckinsOff = true
			p.Schedules = []settings.Schedule{{Label: "pills", At: "23:30"}}
		})
		r.wantOne(r.run(time.Minute), SourceGreeting) // good night, before 22:30
		r.until("2000-01-03 22:30")
		r.e.UserTalked(time.Now())
		fs := r.until("2000-01-04 07:29")
		if sources(fs) != SourceSchedule {
			t.Fatalf("fires %q in quiet hours, want the reminder alone", sources(fs))
		}
		// The morning's greeting is due from 06:00 and held.
		if got := r.skipped(SourceGreeting); !slices.Equal(got, []string{ReasonQuietHours}) {
			t.Fatalf("skipped %v", got)
		}
		f := r.wantOne(r.run(2*time.Minute), SourceGreeting)
		if f.Label != "good morning" || r.at[len(r.at)-1].Format("15:04") != "07:30" {
			t.Fatalf("fire %+v at %v", f, r.at)
		}
	})
}

// A DST change moves no wall-clock rule: quiet hours end at 07:30 local on
// the spring-forward and the fall-back days, and a reminder at a skipped
// or repeated hour fires once.
func TestQuietHoursAndRemindersAcrossDST(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	for _, c := range []struct {
		name, night, day string
	}{
		{"spring forward", "2000-03-25 23:00", "2000-03-26"}, // 02:00 → 03:00
		{"fall back", "2000-10-28 23:00", "2000-10-29"},      // 03:00 → 02:00
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(t, berlin, c.night, func(p *settings.Proactive) {
					p.CheckinsOff = true
					p.Schedules = []settings.Schedule{{Label: "night owl", At: "02:30"}}
				})
				fs := r.until(c.day + " 07:29")
				if sources(fs) != SourceSchedule {
					t.Fatalf("fires %q, want the 02:30 reminder once", sources(fs))
				}
				f := r.wantOne(r.run(2*time.Minute), SourceGreeting)
				if at := r.at[len(r.at)-1].In(berlin).Format("15:04"); f.Label != "good morning" || at != "07:30" {
					t.Fatalf("fire %+v at %s local", f, at)
				}
			})
		})
	}
}

// Per-source debounce, the hourly cap, and the quiet gap after a turn.
func TestDebounceAndHourlyCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", func(p *settings.Proactive) {
			p.GreetingsOff, p.CheckinsOff = true, true
			p.QuietGapMinutes, p.DebounceMinutes, p.HourlyCap = 1, 1, 2
		})
		r.e.cfg.AppDebounce = time.Minute
		r.w.use("app-0")
		apps := 0
		for range 12 { // a new app every 5 min for an hour
			apps++
			r.w.use("app-" + string(rune('a'+apps)))
			r.run(5 * time.Minute)
		}
		for i := 1; i < len(r.at); i++ {
			if n := countWithin(r.at[:i+1], r.at[i], time.Hour); n > 2 {
				t.Fatalf("%d turns in the hour to %v", n, r.at[i])
			}
		}
		if len(r.fires) != 2 || !slices.Contains(r.skipped(SourceSwitch), ReasonHourlyCap) {
			t.Fatalf("fires %d, skipped %v", len(r.fires), r.skipped(SourceSwitch))
		}

		// Debounce: two switches 2 min apart with a 20-minute debounce.
		r.e.cfg.AppDebounce, r.e.cfg.HourlyCap = 20*time.Minute, 10
		r.run(time.Hour)
		r.w.use("x-1")
		r.wantOne(r.run(2*time.Minute), SourceSwitch)
		r.w.use("x-2")
		r.wantNone(r.run(2 * time.Minute))
		if got := r.skipped(SourceSwitch); got[len(got)-1] != ReasonDebounce {
			t.Fatalf("skipped %v", got)
		}
		// The quiet gap: a turn that just ended holds the next one.
		r.run(30 * time.Minute)
		r.e.cfg.QuietGap = 5 * time.Minute
		r.e.TurnEnded(time.Now())
		r.w.use("x-3")
		r.wantNone(r.run(time.Minute))
		if got := r.skipped(SourceSwitch); got[len(got)-1] != ReasonQuietGap {
			t.Fatalf("skipped %v", got)
		}
	})
}

func countWithin(ts []time.Time, end time.Time, d time.Duration) int {
	n := 0
	for _, t := range ts {
		if end.Sub(t) < d && !t.After(end) {
			n++
		}
	}
	return n
}
