package core

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"sync"
	"testing"

	"yui/app/audio"
	"yui/app/settings"
	"yui/app/tts"
	"yui/app/view"
	"yui/app/voice"
)

// toneEngine speaks every sentence as 300 ms of a 440 Hz tone and keeps
// what it was asked.
type toneEngine struct {
	mu   sync.Mutex
	reqs []tts.Request
}

func (e *toneEngine) Synthesize(ctx context.Context, r tts.Request) (audio.PCM, error) {
	e.mu.Lock()
	e.reqs = append(e.reqs, r)
	e.mu.Unlock()
	s := make([]int16, 16000*3/10)
	for i := range s {
		s[i] = int16(12000 * math.Sin(2*math.Pi*440*float64(i)/16000))
	}
	return audio.PCM{Format: audio.Format{Rate: 16000, Channels: 1}, Samples: s}, nil
}

func (e *toneEngine) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.reqs)
}

func voiceCore(t *testing.T, opts Options, sinks ...audio.Sink) (*started, *audio.Memory, *toneEngine) {
	t.Helper()
	mem := &audio.Memory{}
	if sinks != nil {
		mem.SetSinks(sinks)
	}
	eng := &toneEngine{}
	opts.Sound = mem
	opts.VoiceEngine = func(voice.Config) tts.Engine { return eng }
	return startCore(t, opts), mem, eng
}

// A reply is heard: the page gets voiced speech and mouth levels stamped
// when the sound is heard, and the speaker heard every sentence.
func TestReplyIsHeardAndTheMouthFollowsIt(t *testing.T) {
	t.Parallel() // real-time speech on its own core and demo backend
	st, mem, eng := voiceCore(t, Options{Demo: true, DemoAddr: "127.0.0.1:0"})
	p := st.c.Settings().Get().Presets[0]
	conn := st.dial(t, view.RolePet, p.ID)
	page := readPage(conn)
	page.wait(t, "ready", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["plate"] != nil && l["plate"]["kind"] == "" && l["voice"] != nil
	})
	if v := page.last("voice"); v["muted"] != false || v["global_muted"] != false || v["engine"] != "system" {
		t.Fatalf("voice state %v", v)
	}
	send(t, conn, map[string]any{"type": "send_text", "text": "hello there"})
	page.wait(t, "voiced speech with mouth levels and tones, then the composer unlocked", func(all []map[string]any, l map[string]map[string]any) bool {
		voiced, levels := false, false
		for _, m := range all {
			voiced = voiced || (m["type"] == "character" && m["speaking"] == true && m["voiced"] == true)
			if m["type"] == view.TypeMouth {
				lv, _ := m["levels"].([]any)
				tones, _ := m["tones"].([]any) // a tone per level (app/audio Tones)
				levels = levels || (len(lv) > 0 && len(tones) == len(lv) && m["step_ms"] == float64(20))
			}
		}
		return voiced && levels && l["composer"]["locked"] == false
	})
	if eng.count() == 0 || len(mem.Heard()) == 0 {
		t.Fatalf("%d syntheses, %d chunks heard", eng.count(), len(mem.Heard()))
	}
	// The mouth is stamped with when the sound is heard.
	first := mem.Heard()[0].At.UnixMilli()
	page.wait(t, "mouth levels stamped when the first sound was heard", func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, m := range all {
			if m["type"] == view.TypeMouth && int64(m["at"].(float64)) == first {
				return true
			}
		}
		return false
	})
}

// The pet menu's mute switches are saved and shown; the tray's method
// mutes everyone and is told back.
func TestMuteFromThePetMenuAndTheTray(t *testing.T) {
	t.Parallel() // real-time speech on its own core and demo backend
	dir := t.TempDir()
	var told []bool
	var mu sync.Mutex
	st, _, eng := voiceCore(t, Options{ConfigDir: dir, Demo: true, DemoAddr: "127.0.0.1:0", OnMuteChanged: func(on bool) {
		mu.Lock()
		told = append(told, on)
		mu.Unlock()
	}})
	conn, page := st.connectedPet(t)
	send(t, conn, map[string]any{"type": "mute", "scope": "character", "muted": true})
	page.wait(t, "muted", func(_ []map[string]any, l map[string]map[string]any) bool { return l["voice"]["muted"] == true })
	if !readFile(t, dir).Presets[0].Voice.Muted {
		t.Fatal("the mute was not saved")
	}
	// Muted, a reply shows and is not synthesised; the mouth flaps.
	send(t, conn, map[string]any{"type": "send_text", "text": "hello there"})
	page.wait(t, "a muted sentence, then the composer unlocked", func(all []map[string]any, l map[string]map[string]any) bool {
		shown := false
		for _, m := range all {
			shown = shown || (m["type"] == "character" && m["speaking"] == true && m["voiced"] == false)
		}
		return shown && l["composer"]["locked"] == false
	})
	if n := eng.count(); n != 0 {
		t.Fatalf("%d syntheses while muted", n)
	}
	if err := st.c.voices.SetMuted(true); err != nil {
		t.Fatal(err)
	}
	page.wait(t, "globally muted", func(_ []map[string]any, l map[string]map[string]any) bool { return l["voice"]["global_muted"] == true })
	if !st.c.voices.Muted() || !readFile(t, dir).Audio.Muted {
		t.Fatal("the global mute is not on or not saved")
	}
	send(t, conn, map[string]any{"type": "mute", "scope": "all", "muted": false})
	page.wait(t, "not globally muted", func(_ []map[string]any, l map[string]map[string]any) bool { return l["voice"]["global_muted"] == false })
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 2 || !told[0] || told[1] {
		t.Fatalf("OnMuteChanged got %v, want [true false]", told)
	}
}

// The settings window edits the voice: the speech key never leaves the
// core, a refusal names the field, a new tag table reconnects with the
// vocabulary in enum mode, and the device list comes from the output.
func TestSettingsWindowEditsTheVoice(t *testing.T) {
	dir := t.TempDir()
	st, _, _ := voiceCore(t, Options{ConfigDir: dir}, audio.Sink{Name: "speaker", Description: "Speaker", Default: true},
		audio.Sink{Name: "usb", Description: "USB headset"})
	page := readPage(st.dial(t, view.RoleSettings, ""))
	page.wait(t, "state and audio", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l[view.TypeSettingsState] != nil && l[view.TypeSettingsAudio] != nil
	})
	if a := page.last(view.TypeSettingsAudio); a["server"] != "Memory" || !strings.Contains(mustJSON(a["devices"]), "USB headset") {
		t.Fatalf("settings_audio %v", a)
	}
	ws := st.dial(t, view.RoleSettings, "")
	req := formOf(st.c.Settings().Get())
	before := st.c.pet(req.Presets[0].ID)
	// The speech endpoint without a URL is refused by name.
	req.Presets[0].Voice.Engine = "endpoint"
	send(t, ws, saveMsg(req))
	res := page.result(t, "r1")
	if res["ok"] != false || res["field"] != "presets[0].voice.base_url" {
		t.Fatalf("result %v", res)
	}
	// With a URL, a key, a tag table and a device it is saved.
	req.RequestID = "r2"
	req.Presets[0].Voice.BaseURL = "http://127.0.0.1:9/v1"
	req.Presets[0].Voice.EmotionTextMap = map[string]string{"👂": "in a whisper"}
	req.Presets[0].Voice.Volume = 40
	key := "sk-speech-secret"
	req.Presets[0].VoiceKey = &key
	req.Audio = &view.AudioForm{Device: "usb"}
	send(t, ws, saveMsg(req))
	if res := page.result(t, "r2"); res["ok"] != true {
		t.Fatalf("result %v", res)
	}
	saved := readFile(t, dir)
	v := saved.Presets[0].Voice
	if v.Key != key || v.VolumePercent() != 40 || v.EmotionTextMap["👂"] != "in a whisper" || saved.Audio.Device != "usb" {
		t.Fatalf("saved %+v %+v", v, saved.Audio)
	}
	page.wait(t, "the state with the key flag", func(_ []map[string]any, l map[string]map[string]any) bool {
		ps, _ := l[view.TypeSettingsState]["presets"].([]any)
		return len(ps) > 0 && ps[0].(map[string]any)["has_voice_key"] == true
	})
	leaked := ""
	page.wait(t, "a look at what the settings page got", func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, m := range all {
			if strings.Contains(mustJSON(m), key) {
				leaked = mustJSON(m)
			}
		}
		return true
	})
	if leaked != "" {
		t.Fatalf("the speech key reached the settings page: %s", leaked)
	}
	for _, l := range st.trace.lines() {
		if strings.Contains(mustJSON(l), key) {
			t.Fatalf("the speech key reached the trace: %v", l)
		}
	}
	// The tag table changed the vocabulary: the pet has a new session
	// whose hello says enum.
	if got := st.c.presetVocabulary(saved.Presets[0]); got.EmotionTextMode != "enum" || got.EmotionTextMap["👂"] != "in a whisper" {
		t.Fatalf("vocabulary %+v", got)
	}
	if pt := st.c.pet(saved.Presets[0].ID); pt == nil || pt == before {
		t.Fatal("the pet was not given a new session for its new vocabulary")
	}
}

func TestVoiceStateForAPresetThatIsTextOnly(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) { x.Presets[0].Voice.Engine = "off" })
	st, _, _ := voiceCore(t, Options{ConfigDir: dir})
	p := st.c.Settings().Get().Presets[0]
	page := readPage(st.dial(t, view.RolePet, p.ID))
	page.wait(t, "voice state", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["voice"] != nil && l["voice"]["engine"] == "off"
	})
	if st.c.pet(p.ID).Speaker.Voiced() {
		t.Fatal("a text-only character is voiced")
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
