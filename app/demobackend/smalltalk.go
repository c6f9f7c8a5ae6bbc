package demobackend

import (
	"hash/fnv"
	"strings"
)

// smallTalk are the canned replies; one is chosen by a hash of the text.
var smallTalk = [][]line{
	{
		{text: "Oh, I like where this is going!", emotion: "happy", motion: "happy", tone: "joyfully"},
		{text: "Tell me a little more?", emotion: "curious"},
	},
	{
		{text: "Hmm, that's a good one.", emotion: "thinking"},
		{text: "I'd say trust your first instinct.", emotion: "relaxed", motion: "calm"},
		{text: "It's usually right.", emotion: "happy"},
	},
	{
		{text: "Ha, you always make me smile.", emotion: "happy", motion: "laugh", tone: "joyfully"},
		{text: "I'm only a demo, but I'm a cheerful one.", emotion: "embarrassed", motion: "sheepish"},
	},
	{
		{text: "Really?", emotion: "surprised"},
		{text: "I didn't see that coming.", emotion: "surprised", motion: "idle_lively"},
		{text: "You're full of surprises today.", emotion: "happy"},
		{text: "Keep them coming!", emotion: "happy", motion: "dance", tone: "joyfully"},
	},
	{
		{text: "I hear you.", emotion: "sad", tone: "gently"},
		{text: "Some days are like that.", emotion: "relaxed", motion: "calm"},
		{text: "Want to take a short break with me?", emotion: "curious"},
	},
	{
		{text: "Noted!", emotion: "happy"},
		{text: "If you want to see my tricks, just say help.", emotion: "curious", motion: "idle_lively"},
	},
}

// greeting answers hello, hi and friends.
var greeting = []line{
	{text: "Hi there!", emotion: "happy", motion: "happy", tone: "joyfully"},
	{text: "I'm the demo backend, running right inside Yui.", emotion: "relaxed"},
	{text: "Say help to see what I can show you.", emotion: "curious"},
}

// helpLines list the trigger words.
var helpLines = []line{
	{text: "I'm a scripted demo, so I react to a few words.", emotion: "happy"},
	{text: "Try tool, weather, check or fail for my tools, and look or screen to let me peek.", emotion: "curious"},
	{text: "Say delegate for a background task, slow for a long answer, silent, error, or echo.", emotion: "thinking"},
	{text: "Anything else gets small talk!", emotion: "happy", motion: "laugh", tone: "joyfully"},
}

// idleLines answer a turn with no text (one the client started itself).
var idleLines = []line{
	{text: "Oh, hello again.", emotion: "surprised"},
	{text: "I was just daydreaming about clouds.", emotion: "sleepy", motion: "calm", tone: "softly"},
}

// chooseSmallTalk picks a reply for text and returns its index (-1 for the
// greeting and idle replies).
func chooseSmallTalk(text string) ([]line, int) {
	norm := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	if norm == "" {
		return idleLines, -1
	}
	if hasAny(words(norm), wordsGreeting) {
		return greeting, -1
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(norm))
	i := int(h.Sum32() % uint32(len(smallTalk)))
	return smallTalk[i], i
}
