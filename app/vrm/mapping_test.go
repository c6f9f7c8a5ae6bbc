package vrm

import (
	"reflect"
	"strings"
	"testing"
)

func TestDefaultMappingUsesWhatTheModelHas(t *testing.T) {
	full := Info{Expressions: []string{"aa", "angry", "blink", "happy", "relaxed", "sad", "surprised", "thinking"}}
	m, err := Resolve(MappingFile{}, full, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Weights{
		"neutral": {}, "happy": {"happy": 1}, "angry": {"angry": 1}, "sad": {"sad": 1}, "relaxed": {"relaxed": 1},
		"surprised": {"surprised": 1}, "thinking": {"thinking": 1}, // the model's own (custom) expression
		"curious": {"surprised": 0.4, "happy": 0.3}, "sleepy": {"relaxed": 0.6, "blink": 0.45},
		"embarrassed": {"happy": 0.4, "sad": 0.35},
	}
	if !reflect.DeepEqual(m.Emotions, want) {
		t.Fatalf("emotions %v\nwant %v", m.Emotions, want)
	}
	if got := m.EmotionIDs(); !reflect.DeepEqual(got, Emotions) {
		t.Fatalf("ids %v", got)
	}

	// A model with only happy and sad shows only those (and neutral); the
	// fallbacks that need what it lacks are skipped, not half-applied.
	few := Info{Expressions: []string{"happy", "sad"}}
	m, _ = Resolve(MappingFile{}, few, nil)
	if got := m.EmotionIDs(); !reflect.DeepEqual(got, []string{"neutral", "happy", "sad", "embarrassed"}) {
		t.Fatalf("few: %v (%v)", got, m.Emotions)
	}
	if !reflect.DeepEqual(m.Emotions["embarrassed"], Weights{"happy": 0.4, "sad": 0.35}) {
		t.Fatalf("embarrassed %v", m.Emotions["embarrassed"])
	}
}

func TestMappingFileOverridesAndAdds(t *testing.T) {
	f, err := ParseMapping([]byte(`{
		"emotions": {"happy": {"happy": 0.6, "relaxed": 0.4}, "smug": {"smirk": 1, "happy": 0.2}, "angry": {"rage": 1}},
		"motions": {"happy": "cheer"}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	info := Info{Expressions: []string{"angry", "happy", "relaxed", "smirk"}}
	m, err := Resolve(f, info, []string{"cheer"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Emotions["happy"], Weights{"happy": 0.6, "relaxed": 0.4}) {
		t.Errorf("happy %v", m.Emotions["happy"])
	}
	if !reflect.DeepEqual(m.Emotions["smug"], Weights{"smirk": 1, "happy": 0.2}) {
		t.Errorf("smug %v", m.Emotions["smug"])
	}
	// An entry naming only expressions the model lacks keeps the default.
	if !reflect.DeepEqual(m.Emotions["angry"], Weights{"angry": 1}) {
		t.Errorf("angry %v", m.Emotions["angry"])
	}
	if got := m.EmotionIDs(); got[len(got)-1] != "smug" {
		t.Errorf("ids %v", got)
	}
	if !reflect.DeepEqual(m.Motions, map[string]string{"cheer": "cheer", "happy": "cheer"}) {
		t.Errorf("motions %v", m.Motions)
	}
	if _, err := Resolve(MappingFile{Motions: map[string]string{"wave": "hello"}}, info, nil); err == nil || !strings.Contains(err.Error(), `motion "wave": there is no hello.vrma`) {
		t.Errorf("missing clip: %v", err)
	}
}

func TestBadMappingFilesAreRefused(t *testing.T) {
	for in, want := range map[string]string{
		`{`:                                          "not valid JSON",
		`{"emotions": {"Happy": {"happy": 1}}}`:      `emotion "Happy": an emotion id is`,
		`{"emotions": {"happy": {"happy": 2}}}`:      `the weight of "happy" must be from 0 to 1 (it is 2)`,
		`{"emotions": {"happy": {"": 1}}}`:           "an expression name is 1–64 characters",
		`{"motions": {"wave": ""}}`:                  `motion "wave": names no clip`,
		`{"motions": {"Wave!": "x"}}`:                `motion "Wave!": a motion id is`,
		`{"emotions": {"happy": {"happy": "lots"}}}`: "not valid JSON",
	} {
		if _, err := ParseMapping([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
