package playback

import (
	"testing"
	"testing/synctest"
	"time"
)

func TestSayVoicesClientLineWithoutUtteranceEndOrCut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		p, r := newFake(t, v, 2)
		p.Say("1", "Let me think...", LineFiller)
		synctest.Wait()
		expect(t, r, "start 1 Let me think...", "end 1 Let me think...", "idle")
		if _, _, played, _, _ := v.snapshot(); len(played) != 1 || played[0] != "Let me think..." {
			t.Fatalf("voice played %q", played)
		}
		for _, ev := range r.events[:2] {
			if ev.Line != LineFiller {
				t.Fatalf("event %+v lacks Line", ev)
			}
		}
	})
}

func TestSayIsNotOwedButIdleWaitsForIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		v.dur = time.Second
		p, r := newFake(t, v, 2)
		p.Say("1", "Hmm...", LineFiller)
		synctest.Wait()
		if p.Owed() || p.Idle() {
			t.Fatalf("owed %v idle %v while a filler plays", p.Owed(), p.Idle())
		}
		// A silent cue while only a client line plays is due, not waiting
		// on reply speech: it fires when the line ends.
		p.Render("h", []Segment{seg("", emo("happy"))})
		time.Sleep(time.Second)
		synctest.Wait()
		expect(t, r, "start 1 Hmm...", "end 1 Hmm...", "cue h e=happy", "idle")
	})
}

func TestCutFillersStopsPlayingFillerAndDropsQueuedOnes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		v.dur = 10 * time.Second
		p, r := newFake(t, v, 2)
		p.Say("1", "Let me think...", LineFiller)
		p.Say("1", "Just a sec...", LineFiller)
		p.Say("2", "Hmm...", LineFiller)
		time.Sleep(time.Second)
		p.CutFillers("1")
		p.Render("1", []Segment{seg("Answer.")})
		synctest.Wait()
		if at := r.times()[1]; at != time.Second {
			t.Fatalf("filler stopped at %v, want at once", at)
		}
		time.Sleep(time.Minute)
		expect(t, r, "start 1 Let me think...", "end 1 Let me think...",
			"start 2 Hmm...", "end 2 Hmm...",
			"start 1 Answer.", "end 1 Answer.", "utt 1 Answer.", "idle")
	})
}

func TestCutFillersBeforeSynthesisEndsSkipsLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		v.gated = true
		p, r := newFake(t, v, 2)
		p.Say("1", "Let me think...", LineFiller)
		synctest.Wait()
		p.CutFillers("1")
		synctest.Wait()
		expect(t, r)
		if !p.Idle() {
			t.Fatal("player not idle after the cut filler")
		}
		if _, _, _, cancelled, _ := v.snapshot(); len(cancelled) != 1 {
			t.Fatalf("synthesis not cancelled: %q", cancelled)
		}
	})
}

func TestCutFillersLeavesFailureLinesAndReplies(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Paced, so the line comes while the report plays (with instant
		// playback the player may go idle between the calls).
		p, r := newSilent(t, 10)
		p.Render("h", []Segment{seg("Report.")})
		p.Say("1", "I can't connect.", LineFailure)
		p.CutFillers("1")
		time.Sleep(time.Minute) // virtual: both played
		synctest.Wait()
		expect(t, r, "start h Report.", "end h Report.", "utt h Report.",
			"start 1 I can't connect.", "end 1 I can't connect.", "idle")
	})
}

func TestInterruptDropsClientLinesWithoutCut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := newSilent(t, 1)
		p.Say("1", "Let me think...", LineFiller)
		synctest.Wait()
		if cuts := p.Interrupt(); len(cuts) != 0 {
			t.Fatalf("cuts %+v", cuts)
		}
	})
}

func TestSayClosesOpenUtterance(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		p.Speech("h", []Segment{seg("Streaming.")})
		p.Say("1", "Hmm...", LineFiller)
		synctest.Wait()
		expect(t, r, "start h Streaming.", "end h Streaming.", "utt h Streaming.",
			"start 1 Hmm...", "end 1 Hmm...", "idle")
	})
}
