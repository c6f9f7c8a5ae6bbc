package playback

import (
	"testing"
	"testing/synctest"
	"time"
)

func TestSpeechFramesOpenUtteranceRenderCloses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Speech("1", []Segment{seg("One.", emo("happy"))})
		p.Speech("1", []Segment{seg("Two.")})
		synctest.Wait()
		expect(t, r, "cue 1 e=happy", "start 1 One.", "end 1 One.", "start 1 Two.", "end 1 Two.")
		p.Render("1", []Segment{seg("One. Two. Three.")})
		synctest.Wait()
		expect(t, r, "cue 1 e=happy", "start 1 One.", "end 1 One.", "start 1 Two.", "end 1 Two.",
			"start 1 Three.", "end 1 Three.", "utt 1 One. Two. Three.", "idle")
	})
}

func TestEndUtteranceClosesOpenUtterance(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Speech("1", []Segment{seg("Only streamed.")})
		synctest.Wait()
		expect(t, r, "start 1 Only streamed.", "end 1 Only streamed.")
		p.EndUtterance("1")
		synctest.Wait()
		expect(t, r, "start 1 Only streamed.", "end 1 Only streamed.", "utt 1 Only streamed.", "idle")
	})
}

func TestEndUtteranceOfOtherTurnIgnored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Speech("1", []Segment{seg("Streaming.")})
		p.EndUtterance("2")
		synctest.Wait()
		expect(t, r, "start 1 Streaming.", "end 1 Streaming.")
	})
}

func TestQueuedSentencesFinishAfterEndUtterance(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Speech("1", []Segment{seg("First bit.")})
		p.Speech("1", []Segment{seg("Second bit.")})
		p.EndUtterance("1") // frame wait passed: what was sent still plays
		time.Sleep(5 * time.Second)
		expect(t, r, "start 1 First bit.", "end 1 First bit.", "start 1 Second bit.", "end 1 Second bit.",
			"utt 1 First bit. Second bit.", "idle")
	})
}

func TestOtherTurnFrameClosesOpenUtterance(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Speech("1", []Segment{seg("Turn one.")})
		p.Speech("hermes-1", []Segment{seg("Backend turn.")})
		p.Speech("1", []Segment{seg("Late one.")}) // a new utterance for turn 1
		synctest.Wait()
		expect(t, r,
			"start 1 Turn one.", "end 1 Turn one.", "utt 1 Turn one.",
			"start hermes-1 Backend turn.", "end hermes-1 Backend turn.", "utt hermes-1 Backend turn.",
			"start 1 Late one.", "end 1 Late one.")
	})
}

func TestRenderOfOtherTurnClosesOpenUtteranceFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Speech("1", []Segment{seg("Streamed.")})
		p.Render("2", []Segment{seg("Other.")})
		time.Sleep(5 * time.Second)
		expect(t, r, "start 1 Streamed.", "end 1 Streamed.", "utt 1 Streamed.",
			"start 2 Other.", "end 2 Other.", "utt 2 Other.", "idle")
	})
}

func TestRepeatedSpeechFrameDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Speech("1", []Segment{seg("Checking now.")})
		p.Speech("1", []Segment{seg("Checking  now.")}) // repeat, whitespace aside
		p.Render("1", nil)
		synctest.Wait()
		expect(t, r, "start 1 Checking now.", "end 1 Checking now.", "utt 1 Checking now.", "idle")
	})
}

func TestRepeatedSpeechFrameKeepsItsCueAsSilent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Speech("1", []Segment{seg("Checking now.")})
		synctest.Wait()
		p.Speech("1", []Segment{seg("Checking now.", emo("curious"))})
		synctest.Wait()
		expect(t, r, "start 1 Checking now.", "end 1 Checking now.", "cue 1 e=curious")
	})
}

func TestRenderRepeatingStreamedSentencesSkipsThem(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Speech("1", []Segment{seg("All green.")})
		p.Speech("1", []Segment{seg("Two were slow.")})
		p.Render("1", []Segment{seg("All green. Two were slow."), seg("Want the list?", emo("curious"))})
		synctest.Wait()
		expect(t, r,
			"start 1 All green.", "end 1 All green.", "start 1 Two were slow.", "end 1 Two were slow.",
			"cue 1 e=curious", "start 1 Want the list?", "end 1 Want the list?",
			"utt 1 All green. Two were slow. Want the list?", "idle")
	})
}

func TestRenderSkipsJoinedLinesSentAsOneSpeech(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The render arrives while the joined lines are still being
		// spoken (as in a real reply): 18 characters at 10 per second.
		p, r := newSilent(t, 10)
		p.Speech("1", []Segment{seg("Line one.Line two.")})
		synctest.Wait()
		p.Render("1", []Segment{seg("Line one."), seg("Line two.", emo("happy")), seg("Line three.")})
		time.Sleep(10 * time.Second) // virtual: both lines spoken
		synctest.Wait()
		// the cue naming line two plays later in the reply (at the boundary)
		expect(t, r,
			"start 1 Line one.Line two.", "end 1 Line one.Line two.",
			"start 1 Line three.", "end 1 Line three.",
			"utt 1 Line one.Line two. Line three.", "cue 1 e=happy", "idle")
	})
}

func TestRenderWithoutSpeechFramesKeepsRepeats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Render("1", []Segment{seg("No. No. No.")})
		synctest.Wait()
		expect(t, r, "start 1 No.", "end 1 No.", "start 1 No.", "end 1 No.", "start 1 No.", "end 1 No.", "utt 1 No. No. No.", "idle")
	})
}

func TestRenderStopsSkippingAfterFirstNewSentence(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Speech("1", []Segment{seg("Yes.")})
		p.Render("1", []Segment{seg("Okay. Yes.")}) // diverges at once: nothing skipped
		synctest.Wait()
		expect(t, r, "start 1 Yes.", "end 1 Yes.", "start 1 Okay.", "end 1 Okay.", "start 1 Yes.", "end 1 Yes.",
			"utt 1 Yes. Okay. Yes.", "idle")
	})
}

func TestRenderOfNewUtteranceAfterClosedOneIsNotDeduplicated(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Paced, so the second render comes while the first plays: with
		// instant playback the player may go idle between the two calls.
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("Hello.")})
		p.Render("1", []Segment{seg("Hello.")}) // a second render of a closed turn still plays
		time.Sleep(time.Minute)                 // virtual: both played
		synctest.Wait()
		expect(t, r, "start 1 Hello.", "end 1 Hello.", "utt 1 Hello.", "start 1 Hello.", "end 1 Hello.", "utt 1 Hello.", "idle")
	})
}

func TestSpeechFrameWithOnlySilentSegmentOpensNothingAudible(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Speech("1", []Segment{seg("[SILENT]", emo("sleepy"))})
		p.Render("1", nil)
		synctest.Wait()
		expect(t, r, "cue 1 e=sleepy")
	})
}

func TestRenderAfterAnotherTurnsFrameSkipsWhatTheTurnAlreadySaid(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Paced, so the frames come while "One." plays (with instant
		// playback the player may go idle between the calls).
		p, r := newSilent(t, 10)
		p.Speech("1", []Segment{seg("One.")})
		p.Render("hermes-1", []Segment{seg("Report done.")})
		p.Render("1", []Segment{seg("One. Two.")})
		time.Sleep(time.Minute) // virtual: all played
		synctest.Wait()
		expect(t, r,
			"start 1 One.", "end 1 One.", "utt 1 One.",
			"start hermes-1 Report done.", "end hermes-1 Report done.", "utt hermes-1 Report done.",
			"start 1 Two.", "end 1 Two.", "utt 1 Two.", "idle")
	})
}

func TestInterruptForgetsWhatInterruptedTurnsSaid(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Speech("1", []Segment{seg("One.")})
		p.Render("hermes-1", []Segment{seg("Report.")})
		synctest.Wait()
		p.Interrupt()
		synctest.Wait()
		r.reset()
		p.Render("1", []Segment{seg("One.")})
		synctest.Wait()
		expect(t, r, "start 1 One.", "end 1 One.", "utt 1 One.", "idle")
	})
}
