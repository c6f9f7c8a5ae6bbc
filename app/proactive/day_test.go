package proactive

import (
	"math/rand/v2"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// A simulated 8-hour working day with typical input and the default
// settings (docs/proactive.md, "A day with the defaults"): the user
// arrives at 09:00, works in an editor, a browser, a terminal and a chat
// app with typing bursts of 20 s to 3 min, has a coffee break, lunch, a
// video call and a short break, talks to her three times, and leaves at
// 17:00. Her own turns take 20 s to speak. The day must give a handful of
// proactive turns, none while typing.
func TestSimulatedWorkingDay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, time.UTC, "2000-01-03 09:00", nil)
		r.active = false
		rng := rand.New(rand.NewPCG(27, 1))
		start := time.Now()
		at := func(hm string) time.Time {
			d, _ := time.ParseDuration(strings.Replace(hm, ":", "h", 1) + "m")
			return start.Add(d - 9*time.Hour)
		}
		away := [][2]time.Time{{at("10:40"), at("10:55")}, {at("12:30"), at("13:15")}, {at("15:30"), at("15:42")}}
		call := [2]time.Time{at("14:00"), at("14:30")}
		talks := []time.Time{at("09:20"), at("11:05"), at("16:10")}
		apps := []string{"code", "firefox", "xterm", "slack"}
		app, nextSwitch := "code", start.Add(20*time.Minute)
		r.w.use(app)
		var typingUntil, nextBurst time.Time
		var speakingUntil time.Time
		typedFires, byHour := 0, map[int]int{}
		for now := start; now.Before(start.Add(8 * time.Hour)); now = time.Now() {
			isAway := false
			for _, a := range away {
				if !now.Before(a[0]) && now.Before(a[1]) {
					isAway = true
				}
			}
			switch {
			case isAway:
				r.w.typing = false
			case !now.Before(call[0]) && now.Before(call[1]):
				r.w.typing = false
				if r.w.app != "zoom" {
					r.w.use("zoom")
				}
				r.w.touch()
			default:
				if r.w.app == "zoom" || !now.Before(nextSwitch) {
					app = apps[rng.IntN(len(apps))]
					r.w.use(app)
					nextSwitch = now.Add(time.Duration(5+rng.IntN(40)) * time.Minute)
				}
				if !now.Before(nextBurst) {
					typingUntil = now.Add(time.Duration(20+rng.IntN(160)) * time.Second)
					nextBurst = typingUntil.Add(time.Duration(30+rng.IntN(270)) * time.Second)
				}
				r.w.typing = now.Before(typingUntil)
				r.w.touch() // keys or the mouse
			}
			for len(talks) > 0 && !now.Before(talks[0]) {
				r.e.UserTalked(now)
				talks = talks[1:]
			}
			if r.w.speaking && !now.Before(speakingUntil) {
				r.w.speaking = false
				r.e.TurnEnded(now)
			}
			if _, ok := r.tick(); ok {
				if r.w.typing {
					typedFires++
				}
				byHour[now.Hour()]++
				r.w.speaking, speakingUntil = true, now.Add(20*time.Second)
			}
			time.Sleep(TickEvery)
		}
		var lines []string
		for i, f := range r.fires {
			lines = append(lines, r.at[i].Format("15:04")+" "+f.Source+" "+f.Label)
		}
		t.Logf("proactive turns in the 8-hour day: %d\n%s", len(r.fires), strings.Join(lines, "\n"))
		if typedFires != 0 {
			t.Fatalf("%d turns while typing", typedFires)
		}
		if n := len(r.fires); n < 3 || n > 8 {
			t.Fatalf("%d proactive turns in the day, want a handful (3 to 8)", n)
		}
		for h, n := range byHour {
			if n > 2 {
				t.Fatalf("%d turns in hour %d", n, h)
			}
		}
	})
}
