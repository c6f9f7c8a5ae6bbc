package settingsui

import (
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/settings"
	"yui/app/view"
)

// How characters talk among themselves: the state shows the caps in force
// (the defaults for 0) and their bounds; the form's Save writes them, a
// save without them keeps them, and a cap out of range is refused naming
// its field, changing nothing.
func TestTalkMannersShownSavedAndRefusedNamingTheField(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, time.Hour)
		e.room.PublishState()
		talk := func() map[string]any {
			return e.pages.Sticky(view.RoleSettings, "", view.TypeSettingsState)["talk"].(map[string]any)
		}
		if got := talk(); got["max_hops"] != float64(settings.DefaultTalkHops) || got["per_minute"] != float64(settings.DefaultTalkPerMinute) ||
			got["hops_limit"] != float64(settings.MaxTalkHops) || got["per_minute_limit"] != float64(settings.MaxTalkPerMinute) {
			t.Fatalf("published %v", got)
		}
		all := e.store.Get()
		p := all.Presets[0]
		save := func(id string, f *view.TalkForm) map[string]any {
			req := view.SaveSettings{RequestID: id, ActivePreset: all.ActivePreset,
				Presets: []view.SavePreset{{PresetFields: Form(p).PresetFields}}, Talk: f}
			b, _ := json.Marshal(req)
			var m map[string]any
			json.Unmarshal(b, &m)
			m["type"] = view.TypeSaveSettings
			e.send(view.RoleSettings, m)
			return e.pages.Last(view.RoleSettings, "", view.TypeSettingsResult)
		}
		if res := save("r1", &view.TalkForm{MaxHops: 3, PerMinute: 12}); res["ok"] != true {
			t.Fatalf("result %v", res)
		}
		if got := e.store.Get().Talk; got != (settings.Talk{MaxHops: 3, PerMinute: 12}) {
			t.Fatalf("saved %+v", got)
		}
		if got := talk(); got["max_hops"] != 3.0 || got["per_minute"] != 12.0 {
			t.Fatalf("published %v", got)
		}
		if res := save("r2", nil); res["ok"] != true || e.store.Get().Talk.MaxHops != 3 {
			t.Fatalf("a save without talk: %v, %+v", res, e.store.Get().Talk)
		}
		for _, c := range []struct {
			f     view.TalkForm
			field string
		}{
			{view.TalkForm{MaxHops: settings.MaxTalkHops + 1, PerMinute: 5}, "talk.max_hops"},
			{view.TalkForm{MaxHops: 5, PerMinute: settings.MaxTalkPerMinute + 1}, "talk.per_minute"},
			{view.TalkForm{MaxHops: -1, PerMinute: 5}, "talk.max_hops"},
		} {
			if res := save("r3", &c.f); res["ok"] != false || res["field"] != c.field {
				t.Fatalf("%+v: result %v", c.f, res)
			}
		}
		if got := e.store.Get().Talk; got != (settings.Talk{MaxHops: 3, PerMinute: 12}) {
			t.Fatalf("a refused save changed the manners: %+v", got)
		}
	})
}
