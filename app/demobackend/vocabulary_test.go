package demobackend_test

import (
	"testing"
	"testing/synctest"
	"time"

	"yui/app/demobackend"
	"yui/transport/push"
)

func TestCuesFollowTheClientVocabulary(t *testing.T) {
	vocab := push.Vocabulary{
		EmotionIDs:      []string{"neutral", "happy"},
		MotionIDs:       []string{"laugh"},
		EmotionTextMode: "enum",
		EmotionTextMap:  map[string]string{"😆": "joyfully", "👂": "whisper"},
	}
	run(t, envOpt{vocab: vocab}, func(e *env) {
		e.take()
		e.turn("100", "hi")
		e.after(10 * time.Second)
		got := e.take()
		want := []string{
			"  1900 speech 100 {happy//😆}\"Hi there!\"",                                    // motion happy unknown: left out; tone mapped to its tag
			"  2600 speech 100 {happy}\"I'm the demo backend, running right inside Yui.\"", // relaxed → happy
			"  3300 speech 100 {happy}\"Say help to see what I can show you.\"",            // curious → happy
		}
		if len(got) != 8 || !equalLines(got[3:6], want) {
			e.t.Fatalf("transcript:\n%s", quoteLines(got))
		}
	})
}

func TestVocabularyFrameChangesLaterCues(t *testing.T) {
	run(t, envOpt{vocab: push.Vocabulary{EmotionIDs: []string{"neutral"}, EmotionTextMode: "free"}}, func(e *env) {
		e.take()
		e.turn("100", "silent")
		e.after(time.Second)
		if got := e.take(); len(got) != 3 || got[1] != "   400 render 100 {neutral}\"\" reasoning=\"Nothing needs saying; a quiet nod will do.\"" {
			e.t.Fatalf("transcript:\n%s", quoteLines(got))
		}
		e.c.SetVocabulary(push.Vocabulary{EmotionIDs: []string{"relaxed"}, MotionIDs: []string{"calm"}, EmotionTextMode: "free"})
		synctest.Wait()
		e.turn("101", "silent")
		e.after(time.Second)
		if got := e.take(); len(got) != 3 || got[1] != "  1400 render 101 {relaxed/calm}\"\" reasoning=\"Nothing needs saying; a quiet nod will do.\"" {
			e.t.Fatalf("transcript:\n%s", quoteLines(got))
		}
	})
}

func TestEmotionMissingEverywhereIsLeftOut(t *testing.T) {
	run(t, envOpt{vocab: push.Vocabulary{EmotionIDs: []string{"angry"}, EmotionTextMode: "free"}}, func(e *env) {
		e.take()
		e.turn("100", "silent")
		e.after(time.Second)
		if got := e.take(); len(got) != 3 || got[1] != "   400 render 100 {}\"\" reasoning=\"Nothing needs saying; a quiet nod will do.\"" {
			e.t.Fatalf("a segment with no renderable cue carries none:\n%s", quoteLines(got))
		}
	})
}

func TestEmptyVocabularyUsesClientNotesDefaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := demobackend.New(demobackend.Config{Key: testKey})
		defer b.Close()
		c := dialRaw(t, b, nil) // hello vocabulary lists nothing
		defer c.close()
		c.send(map[string]any{"type": "turn", "turn_id": "7", "client_context": "", "text": "slow"})
		time.Sleep(10 * time.Second)
		got := c.take()
		if len(got) != 10 || got[7] != "  8000 speech 7 {happy/happy/joyfully}\"And there it is: the long answer, at last.\"" {
			t.Fatalf("transcript:\n%s", quoteLines(got))
		}
	})
}
