package cue

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestDefaultVocabulary(t *testing.T) {
	v := Default()
	wantE := []string{"neutral", "happy", "angry", "sad", "relaxed", "surprised", "thinking", "curious", "sleepy", "embarrassed"}
	wantM := []string{"happy", "laugh", "embarrassed", "sheepish", "calm", "sleeping", "idle_lively", "dance", "sulk"}
	wantC := []string{"idle", "thinking", "drag", "peek", "window_sit", "walk"}
	if !slices.Equal(v.EmotionIDs, wantE) || !slices.Equal(v.MotionIDs, wantM) || !slices.Equal(v.ClientMotionIDs, wantC) {
		t.Fatalf("defaults differ: %+v", v)
	}
	if v.EmotionTextMode != TextFree || len(v.EmotionTextMap) != 0 {
		t.Fatalf("default mode %q map %v", v.EmotionTextMode, v.EmotionTextMap)
	}
}

func TestDefaultReturnsFreshCopies(t *testing.T) {
	a := Default()
	a.EmotionIDs[0] = "changed"
	a.EmotionTextMap["x"] = "y"
	b := Default()
	if b.EmotionIDs[0] != "neutral" || len(b.EmotionTextMap) != 0 {
		t.Fatal("Default shares state between calls")
	}
}

func TestClientMotionsAreNotSelectable(t *testing.T) {
	v := Default()
	for _, m := range v.ClientMotionIDs {
		if m == "thinking" || m == "idle" || m == "walk" {
			if v.HasMotion(m) {
				t.Errorf("client-only motion %q selectable", m)
			}
		}
	}
	if got := v.Resolve(Cue{MotionID: "walk"}); got.MotionID != "idle" {
		t.Fatalf("client-only motion resolved to %q, want idle", got.MotionID)
	}
}

func TestResolveFallbacks(t *testing.T) {
	v := Default()
	cases := []struct {
		name string
		in   Cue
		want Cue
	}{
		{"known kept", Cue{EmotionID: "happy", MotionID: "dance"}, Cue{EmotionID: "happy", MotionID: "dance"}},
		{"unknown emotion to neutral", Cue{EmotionID: "ecstatic"}, Cue{EmotionID: "neutral"}},
		{"unknown motion to idle", Cue{MotionID: "backflip"}, Cue{MotionID: "idle"}},
		{"empty stays empty", Cue{Caption: "c"}, Cue{Caption: "c"}},
		{"whitespace trimmed", Cue{EmotionID: " sad ", MotionID: "\tcalm"}, Cue{EmotionID: "sad", MotionID: "calm"}},
		{"blank is empty", Cue{EmotionID: "   "}, Cue{}},
		{"case sensitive", Cue{EmotionID: "Happy"}, Cue{EmotionID: "neutral"}},
		{"free mode keeps emotion_text", Cue{EmotionText: "breathy"}, Cue{EmotionText: "breathy"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := v.Resolve(tc.in); got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestEnumModeDropsUnknownTag(t *testing.T) {
	v := Default().WithTextMap(map[string]string{"😆": "joyfully", "👂": "whisper"})
	if v.EmotionTextMode != TextEnum {
		t.Fatalf("mode %q, want enum", v.EmotionTextMode)
	}
	if got := v.Resolve(Cue{EmotionText: "👂"}); got.EmotionText != "👂" {
		t.Fatalf("known tag dropped: %+v", got)
	}
	if got := v.Resolve(Cue{EmotionText: "🙃"}); got.EmotionText != "" {
		t.Fatalf("unknown tag kept: %+v", got)
	}
	if tag, ok := v.VoiceTag("😆"); !ok || tag != "joyfully" {
		t.Fatalf("VoiceTag = %q %v", tag, ok)
	}
	if _, ok := v.VoiceTag("🙃"); ok {
		t.Fatal("VoiceTag of unknown tag ok")
	}
}

func TestWithTextMapEmptyIsFree(t *testing.T) {
	v := Default().WithTextMap(map[string]string{"a": "b"}).WithTextMap(nil)
	if v.EmotionTextMode != TextFree || v.EmotionTextMap == nil {
		t.Fatalf("got %q %v", v.EmotionTextMode, v.EmotionTextMap)
	}
	if tag, ok := v.VoiceTag("breathy"); !ok || tag != "breathy" {
		t.Fatalf("free VoiceTag = %q %v", tag, ok)
	}
	if _, ok := v.VoiceTag(""); ok {
		t.Fatal("empty VoiceTag ok")
	}
}

func TestWithTextMapCopies(t *testing.T) {
	m := map[string]string{"a": "b"}
	v := Default().WithTextMap(m)
	m["c"] = "d"
	if len(v.EmotionTextMap) != 1 {
		t.Fatal("WithTextMap aliases the caller's map")
	}
}

func TestVocabularyWireJSON(t *testing.T) {
	v := Vocabulary{EmotionIDs: []string{"neutral"}}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"emotion_ids":["neutral"],"motion_ids":[],"emotion_text_mode":"free","emotion_text_map":{}}`
	if string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
	b, _ = json.Marshal(Default())
	var back map[string]any
	json.Unmarshal(b, &back)
	if _, leaked := back["ClientMotionIDs"]; leaked || len(back) != 4 {
		t.Fatalf("wire object has fields %v", back)
	}
}

func TestVocabularyRoundTrip(t *testing.T) {
	v := Default().WithTextMap(map[string]string{"😆": "joyfully"})
	b, _ := json.Marshal(v)
	var got Vocabulary
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !got.Equal(v) {
		t.Fatalf("round trip changed: %+v", got)
	}
}

func TestEqual(t *testing.T) {
	a, b := Default(), Default()
	if !a.Equal(b) {
		t.Fatal("defaults unequal")
	}
	b.ClientMotionIDs = nil // not part of the wire
	if !a.Equal(b) {
		t.Fatal("client-only motions should not affect Equal")
	}
	b.MotionIDs = b.MotionIDs[:1]
	if a.Equal(b) {
		t.Fatal("different motions equal")
	}
	if a.Equal(Default().WithTextMap(map[string]string{"x": "y"})) {
		t.Fatal("different mode equal")
	}
}
