package cue

import (
	"encoding/json"
	"testing"
)

func TestCueJSONTags(t *testing.T) {
	b, err := json.Marshal(Cue{EmotionID: "happy", MotionID: "dance", EmotionText: "👂", Caption: "softly"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"emotion_id":"happy","motion_id":"dance","emotion_text":"👂","caption":"softly"}`
	if string(b) != want {
		t.Fatalf("got %s, want %s", b, want)
	}
}

func TestCueJSONOmitsEmptyFields(t *testing.T) {
	b, _ := json.Marshal(Cue{EmotionID: "sad"})
	if string(b) != `{"emotion_id":"sad"}` {
		t.Fatalf("got %s", b)
	}
	b, _ = json.Marshal(Cue{})
	if string(b) != `{}` {
		t.Fatalf("got %s", b)
	}
}

func TestCueJSONDecodeIgnoresUnknownFields(t *testing.T) {
	var c Cue
	if err := json.Unmarshal([]byte(`{"emotion_id":"happy","extra":1}`), &c); err != nil {
		t.Fatal(err)
	}
	if c != (Cue{EmotionID: "happy"}) {
		t.Fatalf("got %+v", c)
	}
}

func TestIsZero(t *testing.T) {
	if !(Cue{}).IsZero() || (Cue{Caption: "x"}).IsZero() {
		t.Fatal("IsZero wrong")
	}
}

func TestMerge(t *testing.T) {
	cases := []struct {
		name        string
		base, later Cue
		want        Cue
	}{
		{"later non-empty wins", Cue{EmotionID: "happy"}, Cue{EmotionID: "sad"}, Cue{EmotionID: "sad"}},
		{"empty never erases", Cue{EmotionID: "happy", MotionID: "dance"}, Cue{}, Cue{EmotionID: "happy", MotionID: "dance"}},
		{"field by field", Cue{EmotionID: "happy", Caption: "a"}, Cue{MotionID: "laugh", Caption: "b"}, Cue{EmotionID: "happy", MotionID: "laugh", Caption: "b"}},
		{"emotion_text", Cue{EmotionText: "😆"}, Cue{EmotionText: "👂"}, Cue{EmotionText: "👂"}},
		{"into empty", Cue{}, Cue{MotionID: "calm"}, Cue{MotionID: "calm"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.base.Merge(tc.later); got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestMergeAllOrder(t *testing.T) {
	got := MergeAll([]Cue{
		{EmotionID: "happy", MotionID: "dance"},
		{EmotionID: "sad"},
		{MotionID: ""},
		{Caption: "whisper", EmotionID: ""},
	})
	want := Cue{EmotionID: "sad", MotionID: "dance", Caption: "whisper"}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if !MergeAll(nil).IsZero() {
		t.Fatal("MergeAll(nil) not zero")
	}
}
