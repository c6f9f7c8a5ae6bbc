package demobackend

import (
	"testing"

	"yui/app/i18n"
	"yui/transport/push"
)

func TestPlanForTriggerWordsAndPrecedence(t *testing.T) {
	cases := []struct {
		text string
		want plan
	}{
		{"How are you?", plan{kind: kindSmallTalk}},
		{"", plan{kind: kindSmallTalk}},
		{"help", plan{kind: kindHelp}},
		{"Show me the DEMO", plan{kind: kindHelp}},
		{"error", plan{kind: kindError}},
		{"Errors, slow and silent", plan{kind: kindError}},
		{"be silent, slowly", plan{kind: kindSilent}},
		{"shh", plan{kind: kindSilent}},
		{"slow delegate", plan{kind: kindSlow}},
		{"stubborn", plan{kind: kindSlow, stubborn: true}},
		{"delegate this and look", plan{kind: kindDelegate}},
		{"in the background please, fail it", plan{kind: kindDelegate, fail: true}},
		{"look at the weather", plan{kind: kindLook}},
		{"what's on my screen?", plan{kind: kindLook, screen: true}},
		{"check", plan{kind: kindTool, toolID: "read_file"}},
		{"Use a tool!", plan{kind: kindTool, toolID: "read_file"}},
		{"weather?", plan{kind: kindTool, toolID: "weather"}},
		{"fail", plan{kind: kindTool, toolID: "read_file", fail: true}},
		{"the weather check failed", plan{kind: kindTool, toolID: "weather", fail: true}},
		{"echo the weather", plan{kind: kindTool, toolID: "weather", echo: true}},
		{"repeat after me", plan{kind: kindSmallTalk, echo: true}},
		// Whole words only.
		{"checkers, toolbox, lookout, errorless, helpful", plan{kind: kindSmallTalk}},
	}
	for _, c := range cases {
		if got := planFor(c.text); got != c.want {
			t.Errorf("planFor(%q) = %+v, want %+v", c.text, got, c.want)
		}
	}
}

func TestSmallTalkChoiceIsDeterministicAndVaried(t *testing.T) {
	seen := map[int]bool{}
	for _, text := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n"} {
		_, i := chooseSmallTalk(wordsIn(i18n.English), text)
		_, again := chooseSmallTalk(wordsIn(i18n.English), "  "+text+"  ")
		if i != again {
			t.Fatalf("%q chose %d then %d", text, i, again)
		}
		seen[i] = true
	}
	if len(seen) < 4 {
		t.Fatalf("only %d replies used across 14 texts", len(seen))
	}
	for i, r := range smallTalk(wordsIn(i18n.English)) {
		if len(r) < 2 || len(r) > 4 {
			t.Errorf("reply %d has %d sentences, want 2-4", i, len(r))
		}
	}
	en := wordsIn(i18n.English)
	if l, i := chooseSmallTalk(en, "Hey there"); i != -1 || l[0].text != greeting(en)[0].text {
		t.Fatalf("greeting not chosen: %d", i)
	}
	ja := wordsIn(i18n.Japanese)
	if l, i := chooseSmallTalk(ja, "こんにちは、ユイ"); i != -1 || l[0].text != greeting(ja)[0].text {
		t.Fatalf("a Japanese greeting not chosen: %d", i)
	}
}

func TestPaletteCue(t *testing.T) {
	def := paletteOf(push.Vocabulary{})
	if c := def.cue(line{emotion: "curious", motion: "dance", tone: "joyfully"}); c != (push.Cue{EmotionID: "curious", MotionID: "dance", EmotionText: "joyfully"}) {
		t.Fatalf("defaults: %+v", c)
	}
	enum := paletteOf(push.Vocabulary{EmotionIDs: []string{"thinking"}, EmotionTextMode: "enum", EmotionTextMap: map[string]string{"b": "Joyfully", "a": "joyfully"}})
	if c := enum.cue(line{emotion: "curious", motion: "dance", tone: "joyfully"}); c != (push.Cue{EmotionID: "thinking", EmotionText: "a"}) {
		t.Fatalf("enum: %+v", c)
	}
	if c := enum.cue(line{emotion: "happy", tone: "gently"}); c != (push.Cue{}) {
		t.Fatalf("no renderable field: %+v", c)
	}
	if s := enum.segment(line{text: "x", emotion: "angry"}); s.Cues != nil || s.Speech != "x" {
		t.Fatalf("segment without cue: %+v", s)
	}
}

func TestConfigDefaultsAndScale(t *testing.T) {
	c := Config{}.withDefaults()
	if c.DelegationDelay != DefaultDelegationDelay || c.TimeScale != 1 || c.Now == nil || c.Logger == nil {
		t.Fatalf("defaults: %+v", c)
	}
	if d := (Config{TimeScale: 0.25}).scaled(thinkStep); d != thinkStep/4 {
		t.Fatalf("scaled: %v", d)
	}
}
