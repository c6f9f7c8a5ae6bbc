package playback

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func TestInterruptDropsQueuedSpeechAndCues(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("First sentence. Second sentence.", emo("happy"))})
		p.Render("2", []Segment{seg("", emo("sad"))}) // waiting on a boundary
		p.Render("3", []Segment{seg("Third turn.", emo("angry"))})
		time.Sleep(500 * time.Millisecond)
		p.Interrupt()
		time.Sleep(time.Minute)
		expect(t, r, "cue 1 e=happy", "start 1 First sentence.", "idle")
	})
}

func TestInterruptReturnsSpokenAndUnspoken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := newSilent(t, 10)
		p.Render("1", []Segment{seg("One. Two. Three.")}) // 4 chars each: 400ms
		time.Sleep(500 * time.Millisecond)                // One done, Two playing
		cuts := p.Interrupt()
		want := []Cut{{TurnID: "1", Spoken: "One. Two.", Unspoken: "Three."}}
		if !slices.Equal(cuts, want) {
			t.Fatalf("cuts %+v, want %+v", cuts, want)
		}
	})
}

func TestInterruptCutsEveryQueuedUtterance(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := newSilent(t, 10)
		p.Render("1", []Segment{seg("Aaa. Bbb.")})
		p.Speech("2", []Segment{seg("Ccc.")})
		synctest.Wait()
		cuts := p.Interrupt()
		want := []Cut{{TurnID: "1", Spoken: "Aaa.", Unspoken: "Bbb."}, {TurnID: "2", Unspoken: "Ccc."}}
		if !slices.Equal(cuts, want) {
			t.Fatalf("cuts %+v, want %+v", cuts, want)
		}
	})
}

func TestInterruptOfOpenFinishedUtteranceReportsSpoken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := newSilent(t, 0)
		p.Speech("1", []Segment{seg("Said it.")})
		synctest.Wait()
		cuts := p.Interrupt()
		want := []Cut{{TurnID: "1", Spoken: "Said it."}}
		if !slices.Equal(cuts, want) {
			t.Fatalf("cuts %+v, want %+v", cuts, want)
		}
	})
}

func TestInterruptWhenIdleCutsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 0)
		if cuts := p.Interrupt(); cuts != nil {
			t.Fatalf("cuts %+v from an idle player", cuts)
		}
		p.Render("1", []Segment{seg("Done.")})
		synctest.Wait()
		if cuts := p.Interrupt(); cuts != nil {
			t.Fatalf("cuts %+v after playback finished", cuts)
		}
		synctest.Wait()
		expect(t, r, "start 1 Done.", "end 1 Done.", "utt 1 Done.", "idle")
	})
}

func TestInterruptDropsWaitingCueForever(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("Speaking now.")})
		p.Render("2", []Segment{seg("", emo("surprised"))})
		synctest.Wait()
		p.Interrupt()
		p.Render("3", []Segment{seg("New reply.")})
		time.Sleep(time.Minute)
		for _, l := range r.lines() {
			if l == "cue 2 e=surprised" {
				t.Fatalf("a stopped turn's cue landed later: %q", r.lines())
			}
		}
		expect(t, r, "start 1 Speaking now.", "start 3 New reply.", "end 3 New reply.", "utt 3 New reply.", "idle")
	})
}

func TestInterruptDropsCueDueAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The player goroutine must be parked first (it steps once when
		// it starts, and would fire a cue it finds due); then nothing
		// wakes it until Interrupt, which holds the delivery lock.
		p, r := newSilent(t, 0)
		synctest.Wait()
		p.mu.Lock()
		p.due = append(p.due, silentCue{turnID: "1", cue: emo("happy")})
		p.mu.Unlock()
		p.Interrupt()
		synctest.Wait()
		expect(t, r)
	})
}

func TestNoSpeechEndAfterInterrupt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 1)
		p.Render("1", []Segment{seg("Very long sentence that plays for ages.")})
		synctest.Wait()
		p.Interrupt()
		time.Sleep(time.Hour)
		expect(t, r, "start 1 Very long sentence that plays for ages.", "idle")
	})
}

func TestPlaybackResumesAfterInterrupt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 10)
		p.Render("1", []Segment{seg("Cut me off.")})
		synctest.Wait()
		p.Interrupt()
		synctest.Wait()
		r.reset()
		p.Speech("2", []Segment{seg("Fresh start.", emo("happy"))})
		p.Render("2", nil)
		time.Sleep(5 * time.Second)
		expect(t, r, "cue 2 e=happy", "start 2 Fresh start.", "end 2 Fresh start.", "utt 2 Fresh start.", "idle")
	})
}

func TestInterruptCancelsSynthesisAhead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		v.gated = true
		p, r := newFake(t, v, 2)
		p.Render("1", []Segment{seg("A. B. C. D.")})
		synctest.Wait()
		synths, _, _, _, _ := v.snapshot()
		slices.Sort(synths)
		if !slices.Equal(synths, []string{"A.", "B.", "C."}) {
			t.Fatalf("synthesising %q, want A. B. C. (one playing + 2 ahead)", synths)
		}
		p.Interrupt()
		synctest.Wait()
		_, _, played, cancelled, _ := v.snapshot()
		slices.Sort(cancelled)
		if !slices.Equal(cancelled, []string{"A.", "B.", "C."}) || len(played) != 0 {
			t.Fatalf("cancelled %q played %q", cancelled, played)
		}
		expect(t, r)
	})
}

func TestInterruptAfterCloseIsNoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := newSilent(t, 10)
		p.Render("1", []Segment{seg("Hello.")})
		p.Close()
		if cuts := p.Interrupt(); cuts != nil {
			t.Fatalf("cuts after close: %+v", cuts)
		}
		p.Render("2", []Segment{seg("Ignored.")})
		p.Speech("2", []Segment{seg("Ignored.")})
		p.EndUtterance("2")
		p.SetMuted(true)
		p.Close() // idempotent
	})
}

func TestInterruptFencedRunsFenceBeforeTheNextEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		fenced := false
		var after []string // events delivered once the fence ran
		var before []string
		p := New(Options{Voice: Silent{CharsPerSecond: 10}, OnEvent: func(ev Event) {
			mu.Lock()
			defer mu.Unlock()
			if fenced {
				after = append(after, describe(ev))
			} else {
				before = append(before, describe(ev))
			}
		}})
		t.Cleanup(p.Close)
		p.Render("1", []Segment{seg("A sentence that plays a while.")})
		time.Sleep(500 * time.Millisecond)
		p.InterruptFenced(func() { mu.Lock(); fenced = true; mu.Unlock() })
		time.Sleep(time.Minute)
		mu.Lock()
		defer mu.Unlock()
		if !slices.Equal(before, []string{"start 1 A sentence that plays a while."}) {
			t.Fatalf("before the fence: %q", before)
		}
		if !slices.Equal(after, []string{"idle"}) {
			t.Fatalf("after the fence: %q (the cut's idle must come after it)", after)
		}
	})
}
