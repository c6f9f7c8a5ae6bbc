package settingsui

import (
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/view"
)

// The "Speaking first" section is published with the state, saved by the
// form's Save (the rest of the section replaced, a character's quiet
// switch kept), and a wrong value is refused naming its field.
func TestProactiveSectionSavesAndRefusesNamingTheField(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, time.Hour)
		e.room.PublishState()
		if got := e.pages.Sticky(view.RoleSettings, "", view.TypeSettingsProactive); got == nil {
			t.Fatal("no settings_proactive")
		}
		all := e.store.Get()
		p := all.Presets[0]
		save := func(id string, f view.ProactiveForm) map[string]any {
			req := view.SaveSettings{RequestID: id, ActivePreset: all.ActivePreset,
				Presets: []view.SavePreset{{PresetFields: Form(p).PresetFields}}, Proactive: &f}
			b, _ := json.Marshal(req)
			var m map[string]any
			json.Unmarshal(b, &m)
			m["type"] = view.TypeSaveSettings
			e.send(view.RoleSettings, m)
			return e.pages.Last(view.RoleSettings, "", view.TypeSettingsResult)
		}
		res := save("r1", view.ProactiveForm{Quiet: true, CheckinMinutes: []int{45}, QuietFrom: "23:00", QuietTo: "06:30",
			Schedules: []view.ScheduleForm{{Label: "tea", At: "16:00", Days: []string{"mon", "fri"}}}})
		if res["ok"] != true {
			t.Fatalf("result %v", res)
		}
		got := e.store.Get().Proactive
		if !got.Quiet || len(got.CheckinMinutes) != 1 || got.CheckinMinutes[0] != 45 || got.QuietFrom != "23:00" ||
			len(got.Schedules) != 1 || got.Schedules[0].Days[1] != "fri" {
			t.Fatalf("saved %+v", got)
		}
		form := e.pages.Sticky(view.RoleSettings, "", view.TypeSettingsProactive)["form"].(map[string]any)
		if form["quiet_from"] != "23:00" || form["quiet"] != true {
			t.Fatalf("published %v", form)
		}
		res = save("r2", view.ProactiveForm{Schedules: []view.ScheduleForm{{Label: "tea", At: "4pm"}}})
		if res["ok"] != false || res["field"] != "proactive.schedules[0].at" {
			t.Fatalf("result %v", res)
		}
		if !e.store.Get().Proactive.Quiet {
			t.Fatal("a refused save changed the section")
		}
	})
}
