package settingsui

import (
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/view"
)

// The UI language and a character's speech language are published with
// the state and saved by the form's Save; an absent field keeps the saved
// value, and a language that is not supported is refused naming its field.
func TestLanguagesSaveAndRefuseNamingTheField(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, time.Hour)
		all := e.store.Get()
		p := all.Presets[0]
		save := func(id string, lang, speech *string) map[string]any {
			f := Form(p).PresetFields
			f.SpeechLanguage = speech
			req := view.SaveSettings{RequestID: id, ActivePreset: all.ActivePreset,
				Presets: []view.SavePreset{{PresetFields: f}}, Language: lang}
			b, _ := json.Marshal(req)
			var m map[string]any
			json.Unmarshal(b, &m)
			m["type"] = view.TypeSaveSettings
			e.send(view.RoleSettings, m)
			return e.pages.Last(view.RoleSettings, "", view.TypeSettingsResult)
		}
		if res := save("r1", new("ja"), new("ko")); res["ok"] != true {
			t.Fatalf("result %v", res)
		}
		if got := e.store.Get(); got.Language != "ja" || got.Presets[0].SpeechLanguage != "ko" {
			t.Fatalf("saved language %q, speech %q", got.Language, got.Presets[0].SpeechLanguage)
		}
		st := e.pages.Sticky(view.RoleSettings, "", view.TypeSettingsState)
		if st["language"] != "ja" || st["presets"].([]any)[0].(map[string]any)["speech_language"] != "ko" {
			t.Fatalf("published %v", st)
		}
		if res := save("r2", nil, nil); res["ok"] != true {
			t.Fatalf("result %v", res)
		}
		if got := e.store.Get(); got.Language != "ja" || got.Presets[0].SpeechLanguage != "ko" {
			t.Fatalf("an absent field changed: language %q, speech %q", got.Language, got.Presets[0].SpeechLanguage)
		}
		if res := save("r3", new("jp"), nil); res["ok"] != false || res["field"] != "language" {
			t.Fatalf("result %v", res)
		}
		if res := save("r4", nil, new("zh")); res["ok"] != false || res["field"] != "presets[0].speech_language" {
			t.Fatalf("result %v", res)
		}
		if res := save("r5", new(""), new("")); res["ok"] != true {
			t.Fatalf("result %v", res)
		}
		if got := e.store.Get(); got.Language != "" || got.Presets[0].SpeechLanguage != "" {
			t.Fatalf("not back to the system's: language %q, speech %q", got.Language, got.Presets[0].SpeechLanguage)
		}
	})
}
