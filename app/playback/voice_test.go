package playback

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

func TestSynthesisRunsAheadPlaybackStaysInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		v.gated = true
		p, r := newFake(t, v, 2)
		p.Render("1", []Segment{seg("A. B. C.")})
		synctest.Wait()
		v.release("C.")
		synctest.Wait()
		v.release("B.")
		synctest.Wait()
		if _, _, played, _, _ := v.snapshot(); len(played) != 0 {
			t.Fatalf("played %q before A. was ready", played)
		}
		expect(t, r)
		v.release("A.")
		synctest.Wait()
		_, finished, played, _, _ := v.snapshot()
		if !slices.Equal(finished, []string{"C.", "B.", "A."}) {
			t.Fatalf("synthesis finished %q", finished)
		}
		if !slices.Equal(played, []string{"A.", "B.", "C."}) {
			t.Fatalf("played %q, want arrival order", played)
		}
		expect(t, r, "start 1 A.", "end 1 A.", "start 1 B.", "end 1 B.", "start 1 C.", "end 1 C.", "utt 1 A. B. C.", "idle")
	})
}

func TestAheadLimitsOutstandingSynthesis(t *testing.T) {
	for _, tc := range []struct{ ahead, want int }{{-1, 1}, {1, 2}, {3, 4}} {
		synctest.Test(t, func(t *testing.T) {
			v := newFakeVoice()
			v.gated = true
			p, _ := newFake(t, v, tc.ahead)
			p.Render("1", []Segment{seg("A. B. C. D. E. F.")})
			synctest.Wait()
			if synths, _, _, _, _ := v.snapshot(); len(synths) != tc.want {
				t.Fatalf("ahead %d: %d synthesising, want %d", tc.ahead, len(synths), tc.want)
			}
			for _, s := range []string{"A.", "B.", "C.", "D.", "E.", "F."} {
				v.release(s)
				synctest.Wait()
			}
			if _, _, _, _, mx := v.snapshot(); mx > tc.want {
				t.Fatalf("ahead %d: %d at once, want at most %d", tc.ahead, mx, tc.want)
			}
			if _, _, played, _, _ := v.snapshot(); len(played) != 6 {
				t.Fatalf("played %q", played)
			}
		})
	}
}

func TestSynthesisAheadCrossesUtterances(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		v.gated = true
		p, _ := newFake(t, v, 2)
		p.Render("1", []Segment{seg("A.")})
		p.Render("2", []Segment{seg("B. C.")})
		synctest.Wait()
		synths, _, _, _, _ := v.snapshot()
		slices.Sort(synths) // goroutines start in any order
		if !slices.Equal(synths, []string{"A.", "B.", "C."}) {
			t.Fatalf("synthesising %q", synths)
		}
	})
}

func TestSynthesisFailureShownWithError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		v.synthErr["Bad."] = errBoom
		p, r := newFake(t, v, 2)
		p.Render("1", []Segment{seg("Good. Bad. Good again.")})
		synctest.Wait()
		expect(t, r, "start 1 Good.", "end 1 Good.", "start 1 Bad.", "end 1 Bad. (err)",
			"start 1 Good again.", "end 1 Good again.", "utt 1 Good. Bad. Good again.", "idle")
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.events[3].Err != errBoom {
			t.Fatalf("speech_end err = %v", r.events[3].Err)
		}
	})
}

func TestPlayFailureReported(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		v.playErr["Oops."] = errBoom
		p, r := newFake(t, v, 2)
		p.Render("1", []Segment{seg("Oops. Fine.")})
		synctest.Wait()
		expect(t, r, "start 1 Oops.", "end 1 Oops. (err)", "start 1 Fine.", "end 1 Fine.", "utt 1 Oops. Fine.", "idle")
	})
}

type nilVoice struct{}

func (nilVoice) Synthesize(_ context.Context, _ Line) (Clip, error) { return nil, nil }

func TestNilClipTreatedAsFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRecorder()
		p := New(Options{Voice: nilVoice{}, OnEvent: r.on, Logger: discardLogger()})
		t.Cleanup(p.Close)
		p.Render("1", []Segment{seg("Hm.")})
		synctest.Wait()
		expect(t, r, "start 1 Hm.", "end 1 Hm. (err)", "utt 1 Hm.", "idle")
	})
}

func TestSlowSynthesisDelaysButKeepsOrderAcrossTurns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		v.gated = true
		p, r := newFake(t, v, 2)
		p.Render("1", []Segment{seg("Slow.")})
		p.Render("2", []Segment{seg("Fast.")})
		v.release("Fast.")
		time.Sleep(time.Minute)
		expect(t, r)
		v.release("Slow.")
		synctest.Wait()
		expect(t, r, "start 1 Slow.", "end 1 Slow.", "utt 1 Slow.", "start 2 Fast.", "end 2 Fast.", "utt 2 Fast.", "idle")
	})
}
