package proactive

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/clientctx"
	"yui/app/settings"
)

func noGreetings(p *settings.Proactive) { p.GreetingsOff = true }

// Each part of the day greets once, at the user's first presence in it.
func TestGreetingOncePerPartOfTheDay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", func(p *settings.Proactive) { p.CheckinsOff = true })
		f := r.wantOne(r.run(time.Minute), SourceGreeting)
		if f.Label != "good morning" || f.Target != "p-00000001" {
			t.Fatalf("fire %+v", f)
		}
		r.wantNone(r.until("2000-01-03 12:00"))
		if f := r.wantOne(r.run(time.Minute), SourceGreeting); f.Label != "good afternoon" {
			t.Fatalf("fire %+v", f)
		}
		// Away through the evening's start: the evening greets at her
		// first presence, not at 18:00.
		r.active = false
		r.until("2000-01-03 18:30")
		r.active = true
		fs := r.run(time.Minute)
		if f := r.wantOne(fs, SourceGreeting); f.Label != "good evening" {
			t.Fatalf("fire %+v (one greeting covers coming back)", f)
		}
		r.wantNone(r.until("2000-01-03 20:59"))
		if f := r.wantOne(r.run(2*time.Minute), SourceGreeting); f.Label != "good night" {
			t.Fatalf("fire %+v", f)
		}
	})
}

// Coming back after being away greets with how long the user was away.
func TestWelcomeBackAfterBeingAway(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", func(p *settings.Proactive) { p.CheckinsOff = true })
		r.wantOne(r.run(time.Minute), SourceGreeting)
		r.until("2000-01-03 10:00")
		r.active = false
		r.wantNone(r.run(9 * time.Minute)) // 9 min: not away yet
		r.active = true
		r.wantNone(r.run(time.Minute))
		r.active = false
		r.wantNone(r.run(25 * time.Minute))
		r.active = true
		f := r.wantOne(r.run(time.Minute), SourceReturn)
		if f.Label != "welcome back" {
			t.Fatalf("fire %+v", f)
		}
		got := clientctx.Context{Now: r.at[len(r.at)-1], Zone: time.UTC, Trigger: f.Trigger()}.Block()
		if !strings.Contains(got, `trigger: proactive "welcome back" (user idle 25min)`) {
			t.Fatalf("block:\n%s", got)
		}
	})
}

// A screen lock is away however short; unlocking it greets.
func TestWelcomeBackAfterAScreenLock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", func(p *settings.Proactive) { p.CheckinsOff = true })
		r.wantOne(r.run(time.Minute), SourceGreeting)
		r.until("2000-01-03 10:00")
		r.active = false
		r.w.locked = true
		r.wantNone(r.run(4 * time.Minute))
		r.w.locked = false
		r.active = true
		if f := r.wantOne(r.run(time.Minute), SourceReturn); f.Label != "welcome back" {
			t.Fatalf("fire %+v", f)
		}
	})
}

// Check-ins come at 30 and 90 minutes of not talking to her, once each per
// gap; talking starts a new gap.
func TestCheckinsOncePerGap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", noGreetings)
		r.wantNone(r.run(29 * time.Minute))
		f := r.wantOne(r.run(2*time.Minute), SourceCheckin)
		got := clientctx.Context{Now: r.at[len(r.at)-1], Zone: time.UTC, Trigger: f.Trigger()}.Block()
		if !strings.Contains(got, `trigger: proactive "check-in" (user idle 30min)`) {
			t.Fatalf("block:\n%s", got)
		}
		r.e.UserTalked(time.Now()) // answered within its window
		r.wantNone(r.run(29 * time.Minute))
		r.wantOne(r.run(2*time.Minute), SourceCheckin)
		r.e.UserTalked(time.Now())
		r.run(30 * time.Minute) // the gap's first
		r.e.UserTalked(time.Now())
		if r.e.Backoff() != 0 {
			t.Fatal("answered check-ins back off")
		}
	})
}

// A check-in not answered doubles the next gaps; an answered one resets.
func TestCheckinBackOffWhenIgnored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", noGreetings)
		r.wantOne(r.until("2000-01-03 09:31"), SourceCheckin)
		// Ignored: the 90-minute check-in comes at 180 minutes.
		r.wantNone(r.until("2000-01-03 11:59"))
		if r.e.Backoff() != 1 {
			t.Fatalf("backoff %d", r.e.Backoff())
		}
		r.wantOne(r.until("2000-01-03 12:01"), SourceCheckin)
		r.wantNone(r.until("2000-01-03 13:00")) // the gap has no more
		if r.e.Backoff() != 2 {
			t.Fatalf("backoff %d", r.e.Backoff())
		}
		// A new gap (she was talked to, late): 30 min × 4.
		r.e.UserTalked(time.Now())
		r.wantNone(r.until("2000-01-03 14:59"))
		r.wantOne(r.until("2000-01-03 15:01"), SourceCheckin)
		r.e.UserTalked(time.Now()) // answered
		if r.e.Backoff() != 0 {
			t.Fatalf("backoff %d after an answer", r.e.Backoff())
		}
		r.wantOne(r.until("2000-01-03 15:32"), SourceCheckin)
	})
}

// A long stretch in one app and a switch to one not seen today, only when
// the user lets the agent know the app.
func TestAppStretchAndSwitch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", func(p *settings.Proactive) {
			p.GreetingsOff, p.CheckinsOff = true, true
		})
		r.w.use("Firefox")
		r.wantNone(r.run(10 * time.Minute))
		r.w.use("Emacs")
		f := r.wantOne(r.run(time.Minute), SourceSwitch)
		if f.Note != "the user switched to Emacs" {
			t.Fatalf("fire %+v", f)
		}
		r.w.use("Firefox") // seen today
		r.wantNone(r.run(30 * time.Minute))
		r.w.use("Emacs")
		r.wantNone(r.run(89 * time.Minute))
		f = r.wantOne(r.run(2*time.Minute), SourceStretch)
		if f.Label != "long stretch" || f.Note != "the user has been in Emacs for 90min" {
			t.Fatalf("fire %+v", f)
		}
		r.wantNone(r.run(3 * time.Hour)) // once per stretch

		r.w.target.TellsApp = false
		r.w.use("Gimp")
		r.wantNone(r.run(time.Minute))
		if got := r.skipped(SourceSwitch); len(got) != 1 || got[0] != ReasonAppNotTold {
			t.Fatalf("skipped %v", got)
		}
	})
}

// Reminders fire at their time on their days, once, also in quiet hours
// and past the hourly cap.
func TestSchedules(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", func(p *settings.Proactive) {
			p.GreetingsOff, p.CheckinsOff = true, true
			p.Schedules = []settings.Schedule{
				{Label: "stand up", At: "10:00"},
				{Label: "team call", At: "11:00", Days: []string{"tue"}},
				{Label: "dentist", At: "23:00", Date: "2000-01-04"},
			}
		})
		r.wantNone(r.until("2000-01-03 09:59"))
		f := r.wantOne(r.run(2*time.Minute), SourceSchedule)
		got := clientctx.Context{Now: time.Now(), Zone: time.UTC, Trigger: f.Trigger()}.Block()
		if !strings.Contains(got, `trigger: schedule "stand up"`) {
			t.Fatalf("block:\n%s", got)
		}
		r.wantNone(r.until("2000-01-04 09:59")) // not 11:00 on a Monday
		fs := r.until("2000-01-04 23:01")
		if sources(fs) != "schedule,schedule,schedule" || fs[0].Label != "stand up" || fs[1].Label != "team call" ||
			fs[2].Label != "dentist" {
			t.Fatalf("fires %+v", fs)
		}
		r.wantOne(r.until("2000-01-05 10:01"), SourceSchedule)
	})
}

// A reminder waits for the user to stop typing, and is dropped an hour late.
func TestScheduleWaitsAndExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", func(p *settings.Proactive) {
			p.GreetingsOff, p.CheckinsOff = true, true
			p.Schedules = []settings.Schedule{{Label: "tea", At: "10:00"}}
		})
		r.w.typing = true
		r.wantNone(r.until("2000-01-03 10:30"))
		r.w.typing = false
		r.wantOne(r.run(time.Minute), SourceSchedule)
		r.w.typing = true
		r.wantNone(r.until("2000-01-04 11:30"))
		r.w.typing = false
		r.wantNone(r.run(time.Hour))
	})
}

// Run ticks on its own and hands the fires over.
func TestRunTicks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", nil)
		ctx, cancel := context.WithCancel(context.Background())
		fires := make(chan Fire, 4)
		go r.e.Run(ctx, time.Now, TickEvery, func(f Fire) { fires <- f })
		if f := <-fires; f.Source != SourceGreeting {
			t.Fatalf("fire %+v", f)
		}
		go func() {
			tk := time.NewTicker(time.Second)
			defer tk.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tk.C:
					r.w.touch()
				}
			}
		}()
		time.Sleep(31 * time.Minute)
		synctest.Wait()
		if f := <-fires; f.Source != SourceCheckin {
			t.Fatalf("fire %+v", f)
		}
		cancel()
		synctest.Wait()
	})
}

// A scaled clock runs scale times faster.
func TestScaled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		now := Scaled(60)
		t0 := now()
		time.Sleep(time.Second)
		if d := now().Sub(t0); d != time.Minute {
			t.Fatalf("a second is %v", d)
		}
	})
}
