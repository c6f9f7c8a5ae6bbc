package demobackend_test

import (
	"testing"
	"time"
)

// Each scenario's whole transcript, frame by frame, with its timing.

func TestSmallTalkStreamsCuedSentencesThenRenderAndUsage(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.expect("     0 delegations []")
		e.turn("100", "How are you doing today?")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"The user said \\\"How are you doing today?\\\". \"",
			"   800 reasoning 100 \"No tool needed here. \"",
			"  1200 reasoning 100 \"I'll go with small-talk reply 2 of 6.\"",
			"  1900 speech 100 {thinking}\"Hmm, that's a good one.\"",
			"  2600 speech 100 {relaxed/calm}\"I'd say trust your first instinct.\"",
			"  3300 speech 100 {happy}\"It's usually right.\"",
			"  3300 render 100 {happy}\"\" reasoning=\"The user said \\\"How are you doing today?\\\". No tool needed here. I'll go with small-talk reply 2 of 6.\"",
			"  3300 turn_end 100 usage=1381/39/1420",
		)
	})
}

func TestGreeting(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "Hello!")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"The user said \\\"Hello!\\\". \"",
			"   800 reasoning 100 \"No tool needed here. \"",
			"  1200 reasoning 100 \"A greeting or a nudge: answer in kind.\"",
			"  1900 speech 100 {happy/happy/joyfully}\"Hi there!\"",
			"  2600 speech 100 {relaxed}\"I'm the demo backend, running right inside Yui.\"",
			"  3300 speech 100 {curious}\"Say help to see what I can show you.\"",
			"  3300 render 100 {curious}\"\" reasoning=\"The user said \\\"Hello!\\\". No tool needed here. A greeting or a nudge: answer in kind.\"",
			"  3300 turn_end 100 usage=1371/43/1414",
		)
	})
}

func TestEmptyTextTurnGetsIdleReply(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"No text: the client started this turn on its own. \"",
			"   800 reasoning 100 \"No tool needed here. \"",
			"  1200 reasoning 100 \"A greeting or a nudge: answer in kind.\"",
			"  1900 speech 100 {surprised}\"Oh, hello again.\"",
			"  2600 speech 100 {sleepy/calm/softly}\"I was just daydreaming about clouds.\"",
			"  2600 render 100 {sleepy}\"\" reasoning=\"No text: the client started this turn on its own. No tool needed here. A greeting or a nudge: answer in kind.\"",
			"  2600 turn_end 100 usage=1377/33/1410",
		)
	})
}

func TestHelpListsTriggerWords(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "help")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"They want to know what the demo can do. \"",
			"   800 reasoning 100 \"List the trigger words.\"",
			"  1500 speech 100 {happy}\"I'm a scripted demo, so I react to a few words.\"",
			"  2200 speech 100 {curious}\"Try tool, weather, check or fail for my tools, and look or screen to let me peek.\"",
			"  2900 speech 100 {thinking}\"Say delegate for a background task, slow for a long answer, silent, error, or echo.\"",
			"  3600 speech 100 {happy/laugh/joyfully}\"Anything else gets small talk!\"",
			"  3600 render 100 {happy/idle_lively}\"\" reasoning=\"They want to know what the demo can do. List the trigger words.\"",
			"  3600 turn_end 100 usage=1366/80/1446",
		)
	})
}

func TestToolRunsWithToolStatus(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "Can you check my notes?")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"To answer that I need the read_file tool. \"",
			"   400 tool_status 100 running read_file",
			"  1900 tool_status 100 done read_file",
			"  1900 reasoning 100 \"notes.txt: three to-dos, two done.\"",
			"  2600 speech 100 {thinking}\"I read notes.txt: three to-dos, and two are done.\"",
			"  3300 speech 100 {happy/happy/joyfully}\"Only one left, you've got this!\"",
			"  3300 render 100 {happy}\"\" reasoning=\"To answer that I need the read_file tool. notes.txt: three to-dos, two done.\"",
			"  3300 turn_end 100 usage=1374/40/1414",
		)
	})
}

func TestWeatherTool(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "what's the weather")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"To answer that I need the weather tool. \"",
			"   400 tool_status 100 running weather",
			"  1900 tool_status 100 done weather",
			"  1900 reasoning 100 \"It says: sunny, 22 °C, light breeze.\"",
			"  2600 speech 100 {happy/happy}\"The weather tool says it's sunny and 22 degrees.\"",
			"  3300 speech 100 {relaxed/calm}\"A light breeze, too, perfect for a walk.\"",
			"  3300 render 100 {relaxed}\"\" reasoning=\"To answer that I need the weather tool. It says: sunny, 22 °C, light breeze.\"",
			"  3300 turn_end 100 usage=1373/42/1415",
		)
	})
}

func TestFailGivesFailedTool(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "weather, but make it fail")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"To answer that I need the weather tool. \"",
			"   400 tool_status 100 running weather",
			"  1900 tool_status 100 failed weather",
			"  1900 reasoning 100 \"It failed (on purpose).\"",
			"  2600 speech 100 {sad/sulk}\"Hmm, the weather tool failed on me.\"",
			"  3300 speech 100 {embarrassed/sheepish}\"That one was on purpose, it's a demo.\"",
			"  3300 render 100 {embarrassed}\"\" reasoning=\"To answer that I need the weather tool. It failed (on purpose).\"",
			"  3300 turn_end 100 usage=1371/38/1409",
		)
	})
}

func TestSilentRenderCarriesCuesOnly(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "Be silent.")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"Nothing needs saying; a quiet nod will do.\"",
			"   400 render 100 {relaxed/calm}\"\" reasoning=\"Nothing needs saying; a quiet nod will do.\"",
			"   400 turn_end 100 usage=1362/20/1382",
		)
	})
}

func TestSlowReplyTakesEightSeconds(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "slow")
		e.after(7900 * time.Millisecond)
		if got := e.take(); len(got) != 6 { // two reasoning frames, four speech frames
			e.t.Fatalf("after 7.9 s: %q", got)
		}
		e.after(time.Second)
		e.expect(
			"  8000 speech 100 {happy/happy/joyfully}\"And there it is: the long answer, at last.\"",
			"  8000 render 100 {relaxed}\"\" reasoning=\"This needs a long answer. I'll take my time with it.\"",
			"  8000 turn_end 100 usage=1364/66/1430",
		)
	})
}

func TestEchoRenderRepeatsStreamedSentences(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "echo this")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"The user said \\\"echo this\\\". \"",
			"   800 reasoning 100 \"No tool needed here. \"",
			"  1200 reasoning 100 \"I'll go with small-talk reply 1 of 6.\"",
			"  1900 speech 100 {happy/happy/joyfully}\"Oh, I like where this is going!\"",
			"  2600 speech 100 {curious}\"Tell me a little more?\"",
			"  2600 render 100 {happy/happy/joyfully}\"Oh, I like where this is going!\" {curious}\"Tell me a little more?\" {curious}\"\" reasoning=\"The user said \\\"echo this\\\". No tool needed here. I'll go with small-talk reply 1 of 6.\"",
			"  2600 turn_end 100 usage=1373/33/1406",
		)
	})
}

func TestTimeScaleShortensEveryDelay(t *testing.T) {
	run(t, envOpt{cfg: cfgScale(0.5)}, func(e *env) {
		e.take()
		e.turn("100", "check")
		e.after(10 * time.Second)
		got := e.take()
		if len(got) != 8 || got[1] != "   200 tool_status 100 running read_file" || got[2] != "   950 tool_status 100 done read_file" || got[7][:6] != "  1650" {
			e.t.Fatalf("transcript at half speed:\n%s", quoteLines(got))
		}
	})
}

func TestUsageGrowsWithTheConversation(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "silent")
		e.after(time.Second)
		e.turn("101", "silent")
		e.after(time.Second)
		e.expect(
			"   400 reasoning 100 \"Nothing needs saying; a quiet nod will do.\"",
			"   400 render 100 {relaxed/calm}\"\" reasoning=\"Nothing needs saying; a quiet nod will do.\"",
			"   400 turn_end 100 usage=1361/20/1381",
			"  1400 reasoning 101 \"Nothing needs saying; a quiet nod will do.\"",
			"  1400 render 101 {relaxed/calm}\"\" reasoning=\"Nothing needs saying; a quiet nod will do.\"",
			"  1400 turn_end 101 usage=1511/20/1531",
		)
	})
}
