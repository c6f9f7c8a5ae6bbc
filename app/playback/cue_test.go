package playback

import (
	"testing"
	"testing/synctest"
	"time"

	"yui/app/cue"
)

func TestSilentRenderCueFiresAtOnceWhenIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("", emo("happy"))})
		synctest.Wait()
		expect(t, r, "cue 1 e=happy")
		if got := r.times(); got[0] != 0 {
			t.Fatalf("cue landed after %v", got[0])
		}
	})
}

func TestSilentTokenCueFiresAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("  [SILENT] ", cue.Cue{MotionID: "sulk"})})
		synctest.Wait()
		expect(t, r, "cue 1 m=sulk")
	})
}

func TestSilentTokenInsideTextIsSpoken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", []Segment{seg("I say [SILENT] sometimes.")})
		synctest.Wait()
		expect(t, r, "start 1 I say [SILENT] sometimes.", "end 1 I say [SILENT] sometimes.", "utt 1 I say [SILENT] sometimes.", "idle")
	})
}

func TestSilentCueAloneNeverIdles(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", []Segment{seg("", emo("sleepy"))})
		p.Render("2", []Segment{seg("[SILENT]", emo("sad"))})
		synctest.Wait()
		expect(t, r, "cue 1 e=sleepy", "cue 2 e=sad")
	})
}

func TestSilentCueWaitsForBoundaryWhileSpeechOwed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("Ten chars.")}) // 1 s
		time.Sleep(200 * time.Millisecond)
		p.Render("2", []Segment{seg("", emo("surprised"))})
		synctest.Wait()
		expect(t, r, "start 1 Ten chars.")
		time.Sleep(2 * time.Second)
		expect(t, r, "start 1 Ten chars.", "end 1 Ten chars.", "utt 1 Ten chars.", "cue 2 e=surprised", "idle")
		if at := r.times()[3]; at != time.Second {
			t.Fatalf("waiting cue fired at %v, want at the boundary (1s)", at)
		}
	})
}

func TestWaitingCueLandsBeforeNextReplySpeech(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("First.")})
		p.Render("2", []Segment{seg("", emo("curious")), seg("Second.", emo("happy"))})
		time.Sleep(5 * time.Second)
		expect(t, r,
			"start 1 First.", "end 1 First.", "utt 1 First.",
			"cue 2 e=curious",
			"cue 2 e=happy", "start 2 Second.", "end 2 Second.", "utt 2 Second.", "idle")
	})
}

func TestEveryWaitingCueFiresAtFirstBoundary(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("Playing.")})
		p.Render("2", []Segment{seg("", emo("sad"))})
		p.Render("3", []Segment{seg("Later.")})
		p.Render("4", []Segment{seg("", cue.Cue{MotionID: "dance"})})
		time.Sleep(5 * time.Second)
		expect(t, r,
			"start 1 Playing.", "end 1 Playing.", "utt 1 Playing.",
			"cue 2 e=sad", "cue 4 m=dance",
			"start 3 Later.", "end 3 Later.", "utt 3 Later.", "idle")
	})
}

func TestSilentSegmentAfterSpeechWaitsForUtteranceEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", []Segment{seg("Hi.", emo("happy")), seg("", emo("sleepy")), seg("Bye.")})
		synctest.Wait()
		expect(t, r,
			"cue 1 e=happy", "start 1 Hi.", "end 1 Hi.", "start 1 Bye.", "end 1 Bye.",
			"utt 1 Hi. Bye.", "cue 1 e=sleepy", "idle")
	})
}

func TestSilentSegmentBeforeSpeechFiresFirstWhenIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", []Segment{seg("", cue.Cue{MotionID: "calm"}), seg("Hi.", emo("happy"))})
		synctest.Wait()
		expect(t, r, "cue 1 m=calm", "cue 1 e=happy", "start 1 Hi.", "end 1 Hi.", "utt 1 Hi.", "idle")
	})
}

func TestCueWithoutSpeechOnSilentRenderClosesUtterance(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Speech("1", []Segment{seg("Streaming.")})
		p.Render("1", []Segment{seg("", emo("happy"))}) // silent render closes the utterance
		time.Sleep(3 * time.Second)
		expect(t, r, "start 1 Streaming.", "end 1 Streaming.", "utt 1 Streaming.", "cue 1 e=happy", "idle")
	})
}

func TestZeroCueNotFired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", []Segment{seg("Hi.", cue.Cue{}), seg("", cue.Cue{})})
		synctest.Wait()
		expect(t, r, "start 1 Hi.", "end 1 Hi.", "utt 1 Hi.", "idle")
	})
}

func TestWaitingCueOfOpenUtteranceFiresWhenItCloses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Speech("1", []Segment{seg("Part one.")})
		p.Speech("1", []Segment{seg("", emo("thinking"))}) // owed: waits
		time.Sleep(3 * time.Second)
		expect(t, r, "start 1 Part one.", "end 1 Part one.")
		p.EndUtterance("1")
		synctest.Wait()
		expect(t, r, "start 1 Part one.", "end 1 Part one.", "utt 1 Part one.", "cue 1 e=thinking", "idle")
	})
}
