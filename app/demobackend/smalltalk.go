package demobackend

import (
	"hash/fnv"
	"strings"
)

// smallTalk are the canned replies in w; one is chosen by a hash of the text.
func smallTalk(w phrasebook) [][]line {
	return [][]line{
		{
			{text: w.s("small_talk.1.1"), emotion: "happy", motion: "happy", tone: "joyfully"},
			{text: w.s("small_talk.1.2"), emotion: "curious"},
		},
		{
			{text: w.s("small_talk.2.1"), emotion: "thinking"},
			{text: w.s("small_talk.2.2"), emotion: "relaxed", motion: "calm"},
			{text: w.s("small_talk.2.3"), emotion: "happy"},
		},
		{
			{text: w.s("small_talk.3.1"), emotion: "happy", motion: "laugh", tone: "joyfully"},
			{text: w.s("small_talk.3.2"), emotion: "embarrassed", motion: "sheepish"},
		},
		{
			{text: w.s("small_talk.4.1"), emotion: "surprised"},
			{text: w.s("small_talk.4.2"), emotion: "surprised", motion: "idle_lively"},
			{text: w.s("small_talk.4.3"), emotion: "happy"},
			{text: w.s("small_talk.4.4"), emotion: "happy", motion: "dance", tone: "joyfully"},
		},
		{
			{text: w.s("small_talk.5.1"), emotion: "sad", tone: "gently"},
			{text: w.s("small_talk.5.2"), emotion: "relaxed", motion: "calm"},
			{text: w.s("small_talk.5.3"), emotion: "curious"},
		},
		{
			{text: w.s("small_talk.6.1"), emotion: "happy"},
			{text: w.s("small_talk.6.2"), emotion: "curious", motion: "idle_lively"},
		},
	}
}

// greeting answers hello, hi and friends.
func greeting(w phrasebook) []line {
	return []line{
		{text: w.s("greeting.1"), emotion: "happy", motion: "happy", tone: "joyfully"},
		{text: w.s("greeting.2"), emotion: "relaxed"},
		{text: w.s("greeting.3"), emotion: "curious"},
	}
}

// helpLines list the trigger words.
func helpLines(w phrasebook) []line {
	return []line{
		{text: w.s("help.1"), emotion: "happy"},
		{text: w.s("help.2"), emotion: "curious"},
		{text: w.s("help.3"), emotion: "thinking"},
		{text: w.s("help.4"), emotion: "happy", motion: "laugh", tone: "joyfully"},
	}
}

// idleLines answer a turn with no text (one the client started itself).
func idleLines(w phrasebook) []line {
	return []line{
		{text: w.s("idle.1"), emotion: "surprised"},
		{text: w.s("idle.2"), emotion: "sleepy", motion: "calm", tone: "softly"},
	}
}

// chooseSmallTalk picks a reply in w for text and returns its index (-1 for the
// greeting and idle replies).
func chooseSmallTalk(w phrasebook, text string) ([]line, int) {
	norm := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	if norm == "" {
		return idleLines(w), -1
	}
	if hasAny(words(norm), wordsGreeting) || greets(norm) {
		return greeting(w), -1
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(norm))
	all := smallTalk(w)
	i := int(h.Sum32() % uint32(len(all)))
	return all[i], i
}

// greetingsCJK are greetings in the languages written without spaces
// between words, found anywhere in the text.
var greetingsCJK = []string{"こんにちは", "こんばんは", "おはよう", "やあ", "안녕", "你好", "早上好", "晚上好", "嗨"}

// greets: text holds one of greetingsCJK.
func greets(text string) bool {
	for _, g := range greetingsCJK {
		if strings.Contains(text, g) {
			return true
		}
	}
	return false
}
