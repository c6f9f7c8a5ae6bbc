package settings

import (
	"errors"
	"testing"
)

// A wrong proactive value is refused naming its field; the zero section
// (a file without it) is valid.
func TestValidateProactiveNamesTheField(t *testing.T) {
	ok := Defaults()
	if err := Validate(&ok); err != nil {
		t.Fatal(err)
	}
	for field, edit := range map[string]func(*Proactive){
		"proactive.morning":              func(p *Proactive) { p.Morning = "6am" },
		"proactive.afternoon":            func(p *Proactive) { p.Afternoon = "05:00" }, // before the morning
		"proactive.quiet_to":             func(p *Proactive) { p.QuietTo = "24:00" },
		"proactive.away_minutes":         func(p *Proactive) { p.AwayMinutes = -1 },
		"proactive.checkin_minutes[1]":   func(p *Proactive) { p.CheckinMinutes = []int{30, 20} },
		"proactive.hourly_cap":           func(p *Proactive) { p.HourlyCap = 21 },
		"proactive.when_muted":           func(p *Proactive) { p.WhenMuted = "loud" },
		"proactive.call_apps[0]":         func(p *Proactive) { p.CallApps = []string{" "} },
		"proactive.schedules[0].label":   func(p *Proactive) { p.Schedules = []Schedule{{At: "10:00"}} },
		"proactive.schedules[0].at":      func(p *Proactive) { p.Schedules = []Schedule{{Label: "tea", At: "10"}} },
		"proactive.schedules[0].date":    func(p *Proactive) { p.Schedules = []Schedule{{Label: "tea", At: "10:00", Date: "2026-02-30"}} },
		"proactive.schedules[0].days[0]": func(p *Proactive) { p.Schedules = []Schedule{{Label: "tea", At: "10:00", Days: []string{"monday"}}} },
		"proactive.schedules[0].days": func(p *Proactive) {
			p.Schedules = []Schedule{{Label: "tea", At: "10:00", Date: "2026-02-03", Days: []string{"mon"}}}
		},
	} {
		s := Defaults()
		edit(&s.Proactive)
		var fe *FieldError
		if err := Validate(&s); !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("%s: got %v", field, err)
		}
	}
}
