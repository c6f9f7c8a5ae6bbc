package core

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"yui/app/core/wardrobe"
	"yui/app/settings"
	"yui/app/view"
)

func vrmTestModel(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "frontend", "tests", "vrm", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// httpBase is the view server's http origin.
func (st *started) httpBase() string {
	u, _ := url.Parse(st.ready["view_url"].(string))
	return "http://" + u.Host
}

func TestVRMLookIsImportedServedAndDeclared(t *testing.T) {
	// The renderer's declaration, as the build writes it.
	pages := fstest.MapFS{"vocabulary.json": {Data: []byte(`{"emotion_ids": ["neutral", "happy"], "motion_ids": ["happy"],
		"client_motion_ids": ["idle"], "vrm": {"motion_ids": ["nod", "wave", "happy"], "client_motion_ids": ["idle", "walk", "window_sit"]}}`)}}
	st := startCore(t, Options{Pages: pages})
	base := st.httpBase()
	settingsTok := st.c.wins.PageToken("")
	preset := st.c.Settings().Get().Presets[0].ID
	petTok := st.c.wins.PageToken(preset)
	post := func(token, name string, body []byte) (int, wardrobe.ImportAnswer) {
		t.Helper()
		return postLook(t, base, token, name, body)
	}
	// Refused: a pet page may not import; a bad file says why.
	if code, _ := post(petTok, "a.vrm", vrmTestModel(t, "yui-test-1.0.vrm")); code != http.StatusForbidden {
		t.Fatalf("a pet page's import: %d", code)
	}
	good := vrmTestModel(t, "yui-test-1.0.vrm")
	if code, a := post(settingsTok, "a.vrm", good[:len(good)/2]); code != http.StatusUnprocessableEntity || !strings.Contains(a.Error, "the file is cut short") {
		t.Fatalf("a truncated model: %d %+v", code, a)
	}
	code, a := post(settingsTok, "My Model.vrm", good)
	if code != 200 || !a.OK || a.Look != "my-model" || a.Name != "Yui test model" {
		t.Fatalf("import: %d %+v", code, a)
	}
	checkImportedChoices(t, st)
	checkVRMVocabulary(t, st)

	// Worn: the page gets the model's path; the core serves it for that
	// page's token only, and only the look's files.
	if err := st.c.Settings().Update(func(s *settings.Settings) { s.Presets[0].Look = "my-model" }); err != nil {
		t.Fatal(err)
	}
	st.c.wardrobe.PublishArt(preset, "my-model")
	conn := st.dial(t, view.RolePet, preset)
	page := readPage(conn)
	page.wait(t, "look_art with the VRM part", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["look_art"] != nil && l["look_art"]["vrm"] != nil
	})
	art := page.last("look_art")["vrm"].(map[string]any)
	model := art["model"].(string)
	if !strings.HasPrefix(model, "/look/file?") || art["breathing"] != "off" {
		t.Fatalf("art %v", art)
	}
	// Her own option, from the settings page, wins over the look's: the
	// page draws her breathing.
	sp := st.dial(t, view.RoleSettings, "")
	send(t, sp, map[string]any{"type": "look_options", "preset": preset, "breathing": "low", "touch_turns": ""})
	page.wait(t, "look_art breathing her own option", func(_ []map[string]any, l map[string]map[string]any) bool {
		v, _ := l["look_art"]["vrm"].(map[string]any)
		return v != nil && v["breathing"] == "low"
	})
	if o := st.c.Settings().Get().Presets[0].LookOptions; o.Breathing != "low" {
		t.Fatalf("her options were not saved: %+v", o)
	}
	get := func(path, token string) (int, []byte) { t.Helper(); return getLook(t, base, path, token) }
	if code, b := get(model, petTok); code != 200 || !bytes.Equal(b, good) {
		t.Fatalf("model: %d, %d bytes", code, len(b))
	}
	if code, _ := get(model, "wrong"); code != http.StatusForbidden {
		t.Fatalf("wrong token: %d", code)
	}
	if code, _ := get(strings.Replace(model, "model.vrm", "look.json", 1), petTok); code != http.StatusNotFound {
		t.Fatalf("look.json served: %d", code)
	}
	if code, _ := get("/look/file?look=other&file=model.vrm", petTok); code != http.StatusNotFound {
		t.Fatalf("another look: %d", code)
	}

	// No WebGL in the page: a notice and a log line saying why.
	send(t, conn, map[string]any{"type": "look_failed", "look": "my-model", "reason": "WebGL is not available"})
	page.wait(t, "the fallback notice", func(_ []map[string]any, l map[string]map[string]any) bool {
		n := l["notice"]
		return n != nil && n["id"] == "look_fallback" && strings.Contains(n["text"].(string), "VRM look cannot be shown here (WebGL is not available)")
	})

	// A touch is logged; with touch turns on it starts a turn, at most one
	// per TouchTurnGap.
	send(t, conn, map[string]any{"type": "touch", "kind": "pat", "where": "head"})
	st.trace.bell.await(t, "the touch seen", func() bool {
		for _, l := range st.trace.lines() {
			if l["event"] == "view_in" && fmtJSON(l["message"]) != "" && strings.Contains(fmtJSON(l["message"]), `"touch"`) {
				return true
			}
		}
		return false
	})
}

// postLook posts body to /look/import with token.
func postLook(t *testing.T, base, token, name string, body []byte) (int, wardrobe.ImportAnswer) {
	t.Helper()
	res, err := http.Post(base+"/look/import?"+url.Values{"token": {token}, "name": {name}}.Encode(), "model/gltf-binary", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var a wardrobe.ImportAnswer
	json.NewDecoder(res.Body).Decode(&a)
	return res.StatusCode, a
}

// getLook gets path (which has a query) with token.
func getLook(t *testing.T, base, path, token string) (int, []byte) {
	t.Helper()
	res, err := http.Get(base + path + "&token=" + url.QueryEscape(token))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// checkImportedChoices: the imported look is offered in the settings
// choices, with its VRM part.
func checkImportedChoices(t *testing.T, st *started) {
	t.Helper()
	sp := readPage(st.dial(t, view.RoleSettings, ""))
	var state view.SettingsState
	sp.wait(t, "the settings state after the import", func(_ []map[string]any, l map[string]map[string]any) bool {
		b, _ := json.Marshal(l[view.TypeSettingsState])
		return json.Unmarshal(b, &state) == nil && len(state.Choices.VRMLooks) > 0
	})
	i := slices.IndexFunc(state.Choices.Looks, func(c view.Choice) bool { return c.ID == "my-model" })
	if i < 0 || state.Choices.Looks[i].Label != "Yui test model (VRM model)" || !state.Choices.Looks[i].Available {
		t.Fatalf("looks %+v", state.Choices.Looks)
	}
	if len(state.Choices.VRMLooks) != 1 || state.Choices.VRMLooks[0].Version != "1.0" || state.Choices.VRMLooks[0].Breathing != "off" {
		t.Fatalf("vrm looks %+v", state.Choices.VRMLooks)
	}
}

// checkVRMVocabulary: her vocabulary is the look's (the model's
// emotions, the VRM motions).
func checkVRMVocabulary(t *testing.T, st *started) {
	t.Helper()
	p := st.c.Settings().Get().Presets[0]
	p.Look = "my-model"
	v := st.c.presetVocabulary(p)
	if !slices.Contains(v.MotionIDs, "wave") || !slices.Contains(v.ClientMotionIDs, "window_sit") {
		t.Fatalf("motions %v", v.MotionIDs)
	}
	if !slices.Equal(v.MotionIDs, []string{"nod", "wave", "happy"}) || len(v.EmotionIDs) != 10 {
		t.Fatalf("motions %v emotions %v", v.MotionIDs, v.EmotionIDs)
	}
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
