package playback

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/cue"
)

func TestRenderPlaysSentencesInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", []Segment{seg("All green. Want the slow ones?", emo("happy"))})
		synctest.Wait()
		expect(t, r,
			"cue 1 e=happy",
			"start 1 All green.", "end 1 All green.",
			"start 1 Want the slow ones?", "end 1 Want the slow ones?",
			"utt 1 All green. Want the slow ones?",
			"idle")
	})
}

func TestSentencesPlayAtSilentPace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("Hello. Bye now.")}) // 6 and 8 code points
		time.Sleep(2 * time.Second)
		synctest.Wait()
		want := []time.Duration{0, 600 * time.Millisecond, 600 * time.Millisecond, 1400 * time.Millisecond, 1400 * time.Millisecond, 1400 * time.Millisecond}
		if got := r.times(); !slices.Equal(got, want) {
			t.Fatalf("event times %v, want %v (events %q)", got, want, r.lines())
		}
	})
}

func TestRendersPlayInArrivalOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("First one.")})
		p.Render("hermes-2", []Segment{seg("Second.")})
		p.Render("3", []Segment{seg("Third.")})
		synctest.Wait()
		time.Sleep(10 * time.Second)
		expect(t, r,
			"start 1 First one.", "end 1 First one.", "utt 1 First one.",
			"start hermes-2 Second.", "end hermes-2 Second.", "utt hermes-2 Second.",
			"start 3 Third.", "end 3 Third.", "utt 3 Third.",
			"idle")
	})
}

func TestRenderQueuedBehindPlayingSpeech(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("Long sentence here.")})
		time.Sleep(500 * time.Millisecond)
		p.Render("2", []Segment{seg("Next.")})
		synctest.Wait()
		if got := r.lines(); len(got) != 1 || got[0] != "start 1 Long sentence here." {
			t.Fatalf("second render interrupted the first: %q", got)
		}
		time.Sleep(5 * time.Second)
		expect(t, r, "start 1 Long sentence here.", "end 1 Long sentence here.", "utt 1 Long sentence here.",
			"start 2 Next.", "end 2 Next.", "utt 2 Next.", "idle")
	})
}

func TestSegmentsPlayInOrderWithTheirCues(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", []Segment{
			seg("All green.", emo("happy")),
			seg("Want the slow ones listed?", cue.Cue{EmotionID: "curious", EmotionText: "👂"}),
		})
		synctest.Wait()
		expect(t, r,
			"cue 1 e=happy", "start 1 All green.", "end 1 All green.",
			"cue 1 e=curious,t=👂", "start 1 Want the slow ones listed?", "end 1 Want the slow ones listed?",
			"utt 1 All green. Want the slow ones listed?", "idle")
	})
}

func TestCuesMergeWithinSegment(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", []Segment{seg("Hi.",
			cue.Cue{EmotionID: "happy", MotionID: "dance"},
			cue.Cue{EmotionID: "sad"},
			cue.Cue{Caption: "softly"})})
		synctest.Wait()
		expect(t, r, "cue 1 e=sad,m=dance,c=softly", "start 1 Hi.", "end 1 Hi.", "utt 1 Hi.", "idle")
	})
}

func TestCuesDoNotMergeAcrossSegments(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", []Segment{seg("A.", cue.Cue{MotionID: "dance"}), seg("B.", emo("sad"))})
		synctest.Wait()
		expect(t, r, "cue 1 m=dance", "start 1 A.", "end 1 A.", "cue 1 e=sad", "start 1 B.", "end 1 B.", "utt 1 A. B.", "idle")
	})
}

func TestSegmentCueFiresOncePerSegment(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", []Segment{seg("One. Two. Three.", emo("happy"))})
		synctest.Wait()
		n := 0
		for _, l := range r.lines() {
			if l == "cue 1 e=happy" {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("cue fired %d times, want once: %q", n, r.lines())
		}
	})
}

func TestBubbleTextStripsEmojiKeepsLinksVoiceGetsLabels(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		p, r := newFake(t, v, 0)
		p.Render("1", []Segment{seg("Done 🎉 see [the report](https://r/1).")})
		synctest.Wait()
		expect(t, r, "start 1 Done see [the report](https://r/1).", "end 1 Done see [the report](https://r/1).",
			"utt 1 Done see [the report](https://r/1).", "idle")
		if synths, _, _, _, _ := v.snapshot(); !slices.Equal(synths, []string{"Done see the report."}) {
			t.Fatalf("voice got %q", synths)
		}
	})
}

func TestEmojiOnlySentenceSkipped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", []Segment{seg("Yay! 🎉🎉")})
		synctest.Wait()
		expect(t, r, "start 1 Yay!", "end 1 Yay!", "utt 1 Yay!", "idle")
	})
}

func TestVoiceLineCarriesSegmentCue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		p, _ := newFake(t, v, 0)
		c := cue.Cue{EmotionID: "happy", EmotionText: "😆", Caption: "bright"}
		p.Render("7", []Segment{seg("One. Two.", c)})
		synctest.Wait()
		v.mu.Lock()
		defer v.mu.Unlock()
		if len(v.lines) != 2 {
			t.Fatalf("voice got %d lines", len(v.lines))
		}
		for _, l := range v.lines {
			if l.Cue != c || l.TurnID != "7" {
				t.Fatalf("line %+v lacks the segment cue or turn", l)
			}
		}
	})
}

func TestEmptyRenderEmitsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", nil)
		p.Render("1", []Segment{seg("")})
		synctest.Wait()
		expect(t, r)
		if !p.Idle() || p.Owed() {
			t.Fatal("player not idle after empty renders")
		}
	})
}

func TestIdleOncePerRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("A.")})
		p.Render("2", []Segment{seg("B.")})
		time.Sleep(time.Second)
		synctest.Wait()
		p.Render("3", []Segment{seg("C.")})
		time.Sleep(time.Second)
		synctest.Wait()
		n := 0
		for _, l := range r.lines() {
			if l == "idle" {
				n++
			}
		}
		if n != 2 {
			t.Fatalf("idle %d times, want 2 (one per run): %q", n, r.lines())
		}
	})
}

func TestOwedAndIdleQueries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := newSilent(t, 10)
		if p.Owed() || !p.Idle() {
			t.Fatal("fresh player owes speech")
		}
		p.Render("1", []Segment{seg("Hello.")})
		if !p.Owed() || p.Idle() {
			t.Fatal("queued speech not owed")
		}
		time.Sleep(300 * time.Millisecond)
		if !p.Owed() {
			t.Fatal("playing speech not owed")
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if p.Owed() || !p.Idle() {
			t.Fatal("finished speech still owed")
		}
	})
}
