package playback

import (
	"testing"
	"testing/synctest"
	"time"
)

func TestMutedShowsWithoutVoice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		p, r := newFake(t, v, 2)
		p.SetMuted(true)
		p.Render("1", []Segment{seg("Shown only. Still shown.", emo("happy"))})
		synctest.Wait()
		expect(t, r, "cue 1 e=happy",
			"start 1 Shown only. (muted)", "end 1 Shown only.",
			"start 1 Still shown. (muted)", "end 1 Still shown.",
			"utt 1 Shown only. Still shown.", "idle")
		if synths, _, played, _, _ := v.snapshot(); len(synths)+len(played) != 0 {
			t.Fatalf("voice used while muted: synth %q played %q", synths, played)
		}
	})
}

func TestMutedPacedByShownVoice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRecorder()
		p := New(Options{Voice: newFakeVoice(), Shown: Silent{CharsPerSecond: 10}, OnEvent: r.on})
		t.Cleanup(p.Close)
		p.SetMuted(true)
		p.Render("1", []Segment{seg("Hello.")})
		time.Sleep(time.Second)
		if got := r.times(); got[1] != 600*time.Millisecond {
			t.Fatalf("muted sentence ended at %v, want paced 600ms", got[1])
		}
	})
}

func TestMuteStopsPlayingVoice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		v.dur = 10 * time.Second
		p, r := newFake(t, v, 2)
		p.Render("1", []Segment{seg("Long one. Next one.")})
		time.Sleep(time.Second)
		p.SetMuted(true)
		synctest.Wait()
		expect(t, r,
			"start 1 Long one.", "end 1 Long one.",
			"start 1 Next one. (muted)", "end 1 Next one.",
			"utt 1 Long one. Next one.", "idle")
		if at := r.times()[1]; at != time.Second {
			t.Fatalf("voice stopped at %v, want at once (1s)", at)
		}
		if !p.Muted() {
			t.Fatal("Muted() = false")
		}
	})
}

func TestMuteWhileSynthesisPendingShowsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		v.gated = true // synthesis never finishes on its own
		p, r := newFake(t, v, 0)
		p.Render("1", []Segment{seg("Stuck.")})
		synctest.Wait()
		expect(t, r)
		p.SetMuted(true)
		synctest.Wait()
		expect(t, r, "start 1 Stuck. (muted)", "end 1 Stuck.", "utt 1 Stuck.", "idle")
	})
}

func TestUnmuteVoicesAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		p, r := newFake(t, v, 2)
		p.SetMuted(true)
		p.Render("1", []Segment{seg("Quiet.")})
		synctest.Wait()
		p.SetMuted(false)
		p.Render("2", []Segment{seg("Loud.")})
		synctest.Wait()
		expect(t, r, "start 1 Quiet. (muted)", "end 1 Quiet.", "utt 1 Quiet.", "idle",
			"start 2 Loud.", "end 2 Loud.", "utt 2 Loud.", "idle")
		if _, _, played, _, _ := v.snapshot(); len(played) != 1 || played[0] != "Loud." {
			t.Fatalf("voice played %q, want only Loud.", played)
		}
	})
}

func TestMutedInterruptStillCuts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRecorder()
		p := New(Options{Voice: Silent{}, Shown: Silent{CharsPerSecond: 10}, OnEvent: r.on})
		t.Cleanup(p.Close)
		p.SetMuted(true)
		p.Render("1", []Segment{seg("Aaa. Bbb.")})
		time.Sleep(100 * time.Millisecond)
		cuts := p.Interrupt()
		if len(cuts) != 1 || cuts[0].Spoken != "Aaa." || cuts[0].Unspoken != "Bbb." {
			t.Fatalf("cuts %+v", cuts)
		}
	})
}
