package core

import (
	"fmt"
	"strings"
	"testing"

	"yui/app/listen/listentest"
	"yui/app/settings"
	"yui/app/view"
)

// The Listening section: saved from the settings window (the key kept in
// the core, the form told only that there is one), applied at once (the
// microphone opens, the pill shows it), and the pet page picks the
// character spoken turns go to.
func TestListeningSettingsOpenTheMicrophoneAndThePillShowsIt(t *testing.T) {
	dir := t.TempDir()
	mic := &listentest.QuietMic{}
	st := startCore(t, Options{ConfigDir: dir, Input: mic})
	p := st.c.Settings().Get().Presets[0]
	petConn := st.dial(t, view.RolePet, p.ID)
	pet := readPage(petConn)
	pet.wait(t, "listening off", func(_ []map[string]any, l map[string]map[string]any) bool {
		return listenPill(l[view.TypeListen], "off", false, "F8") && l[view.TypeListen]["target"] == true
	})
	if mic.Opened() != 0 {
		t.Fatal("the microphone is open with listening off")
	}
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	page.wait(t, "the Listening section with the microphones (no monitors)", func(_ []map[string]any, l map[string]map[string]any) bool {
		return mic.Listed(l[view.TypeSettingsListen]["devices"])
	})
	key := "sk-listen-secret"
	// The Listening section is saved by the form's one Save: a
	// save_settings carrying it.
	saveListen := func(id string, form view.ListenForm, key *string) map[string]any {
		t.Helper()
		req := formOf(readFile(t, dir))
		req.RequestID, req.Listen, req.ListenKey = id, &form, key
		send(t, conn, saveMsg(req))
		return page.result(t, id)
	}
	save := func(req view.SaveSettings) { t.Helper(); send(t, conn, saveMsg(req)); accepted(t, page, req.RequestID) }
	okSaved(t, saveListen("l1", view.ListenForm{On: true, Sensitivity: 70, BargeIn: true, BaseURL: "http://127.0.0.1:9/v1", Language: "en", PushToTalkKey: "F9"}, &key))
	if saved := readFile(t, dir).Listen; saved != (settings.Listen{On: true, Key: key, Sensitivity: 70, BargeIn: true,
		BaseURL: "http://127.0.0.1:9/v1", Language: "en", PushToTalkKey: "F9"}) {
		t.Fatalf("saved %+v", saved)
	}
	page.wait(t, "has_key, never the key", func(_ []map[string]any, l map[string]map[string]any) bool {
		f, _ := l[view.TypeSettingsListen]["form"].(map[string]any)
		return f != nil && f["has_key"] == true && f["on"] == true
	})
	page.wait(t, "no message carries the key", func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, m := range all {
			if strings.Contains(fmt.Sprint(m), key) {
				t.Fatal("the key reached the settings page")
			}
		}
		return true
	})
	pet.wait(t, "the pill shows the microphone open", func(_ []map[string]any, l map[string]map[string]any) bool {
		return listenPill(l[view.TypeListen], "listening", true, "F9")
	})
	if mic.Opened() != 1 {
		t.Fatalf("microphone opened %d times", mic.Opened())
	}
	// Off again: the microphone closes.
	okSaved(t, saveListen("l2", view.ListenForm{On: false, BaseURL: "http://127.0.0.1:9/v1"}, nil))
	pet.wait(t, "the pill shows listening off", func(_ []map[string]any, l map[string]map[string]any) bool {
		return listenPill(l[view.TypeListen], "off", false, "")
	})
	if readFile(t, dir).Listen.Key != key {
		t.Fatal("a save without a typed key lost the key")
	}
	// The pet menu picks this character as the one who hears.
	send(t, petConn, map[string]any{"type": view.TypeListenTarget})
	page.wait(t, "the target saved", func(_ []map[string]any, l map[string]map[string]any) bool {
		f, _ := l[view.TypeSettingsListen]["form"].(map[string]any)
		return f != nil && f["target"] == p.ID
	})
	if readFile(t, dir).Listen.Target != p.ID {
		t.Fatal("target not saved")
	}
	// A form save keeps the target the pet menu chose (the form does not
	// edit it), and a save without the section keeps the section.
	okSaved(t, saveListen("l3", view.ListenForm{On: false, BaseURL: "http://127.0.0.1:9/v1", Target: "p-elsewhere"}, nil))
	req := formOf(readFile(t, dir))
	req.RequestID = "l4"
	save(req)
	if l := readFile(t, dir).Listen; l != (settings.Listen{Target: p.ID, Key: key, BaseURL: "http://127.0.0.1:9/v1"}) {
		t.Fatalf("after saves without a target / without the section: %+v", l)
	}
	// A bad field of the section is refused by name, and nothing changes.
	if res := saveListen("bad", view.ListenForm{On: true, Language: "English"}, nil); res["ok"] != false || res["field"] != "listen.language" {
		t.Fatalf("a bad language: %v", res)
	}
	if readFile(t, dir).Listen.On {
		t.Fatal("a refused save changed the section")
	}
	// Removing the character who hears is a save like any other (it was
	// refused: "listen.target: no preset has id"); spoken turns go to the
	// main one then.
	mio := settings.NewPreset("Mio")
	st.c.Settings().Update(func(x *settings.Settings) { x.Presets = append(x.Presets, mio); x.Listen.Target = mio.ID })
	req = formOf(readFile(t, dir))
	req.RequestID, req.Presets = "rm", req.Presets[:1]
	save(req) // removing the character who hears
	if l := readFile(t, dir).Listen; l.Target != "" {
		t.Fatalf("the target outlived its character: %q", l.Target)
	}
}

// listenPill says whether the pill's voice segment shows mode, the
// microphone open or not, and the push-to-talk key (when key is not "").
func listenPill(ls map[string]any, mode string, open bool, key string) bool {
	return ls != nil && ls["mode"] == mode && ls["open"] == open && (key == "" || ls["push_to_talk_key"] == key)
}

// okSaved fails t unless res is an accepted save.
func okSaved(t *testing.T, res map[string]any) {
	t.Helper()
	if res["ok"] != true {
		t.Fatalf("refused: %v", res)
	}
}

// accepted waits for request id's result, which must be an accepted save.
func accepted(t *testing.T, page *pageReader, id string) {
	t.Helper()
	okSaved(t, page.result(t, id))
}
