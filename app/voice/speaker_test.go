package voice_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/cue"
	"yui/app/playback"
	"yui/app/tts"
	"yui/app/voice"
)

var three = []string{"The first sentence.", "The second one.", "And the third."}

func TestOrderAndGaps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &toneEngine{texts: three, dur: 800 * time.Millisecond}
		r := newRig(t, e, voice.Config{})
		r.say(three...)
		r.idle()
		sp := spans(r.mem, r.t0)
		if got := order(sp); !slices.Equal(got, []int{0, 1, 2}) {
			t.Fatalf("heard sentences %v, want [0 1 2]", got)
		}
		for i, s := range sp {
			if d := s.end - s.start; d != 800*time.Millisecond {
				t.Errorf("sentence %d lasted %v, want 800ms", i, d)
			}
			if i > 0 {
				// Synthesis ran ahead, and each clip returned its stream's
				// start latency (10 ms on this speaker) before its sound
				// ended: the next one is heard as it ends, with no gap.
				if gap := s.start - sp[i-1].end; gap != 0 {
					t.Errorf("gap before sentence %d: %v, want none", i, gap)
				}
			}
		}
		// The bubble leads the sound by the stream's start latency, for
		// every sentence alike: the first (a stream opened from idle) and
		// the ones after (opened that long before the previous ended).
		for i := range 3 {
			if d := sp[i].start - r.at(playback.SpeechStart, three[i]); d != 10*time.Millisecond {
				t.Errorf("sentence %d is heard %v after its speech_start, want 10ms", i, d)
			}
		}
	})
}

func TestInterruptSilencesAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &toneEngine{texts: three, dur: time.Second}
		r := newRig(t, e, voice.Config{})
		r.say(three...)
		time.Sleep(1300 * time.Millisecond) // 300 ms into the second sentence
		stopAt := time.Since(r.t0)
		cuts := r.player.Interrupt()
		if len(cuts) != 1 || !strings.Contains(cuts[0].Spoken, three[1]) {
			t.Fatalf("cuts %+v", cuts)
		}
		time.Sleep(5 * time.Second)
		synctest.Wait()
		// Nothing heard after the stop, and the page was told the mouth
		// closes then.
		if got := order(silencedAt(t, r, stopAt)); !slices.Equal(got, []int{0, 1}) {
			t.Fatalf("heard %v, want [0 1]", got)
		}
	})
}

func TestSynthesisFailureMidReply(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &toneEngine{texts: three, dur: 500 * time.Millisecond,
			fail: map[string]error{three[1]: &tts.Error{Short: "voice: speech endpoint error 500", Err: errors.New("boom")}}}
		r := newRig(t, e, voice.Config{})
		r.say(three...)
		r.idle()
		if got := order(spans(r.mem, r.t0)); !slices.Equal(got, []int{0, 2}) {
			t.Fatalf("heard %v, want [0 2]", got)
		}
		// Every sentence was shown; the failed one for its reading time,
		// with the error on its speech_end.
		start, end := r.at(playback.SpeechStart, three[1]), r.at(playback.SpeechEnd, three[1])
		if want := (playback.Silent{CharsPerSecond: 15}).Duration(three[1]); end-start != want {
			t.Errorf("failed sentence shown for %v, want its reading time %v", end-start, want)
		}
		if r.event(playback.SpeechEnd, three[1]).Err == nil || r.event(playback.SpeechEnd, three[0]).Err != nil {
			t.Error("speech_end errors are not on the failed sentence only")
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if !slices.Equal(r.errs, []string{"voice: speech endpoint error 500"}) {
			t.Errorf("pill errors %q", r.errs)
		}
	})
}

func TestMuteStopsTheSoundNotThePace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &toneEngine{texts: three, dur: time.Second}
		r := newRig(t, e, voice.Config{})
		r.say(three...)
		time.Sleep(400 * time.Millisecond)
		muteAt := time.Since(r.t0)
		r.sp.SetMuted(true)
		if r.sp.Voiced() {
			t.Error("a muted speaker says it is voiced")
		}
		r.idle()
		sp := spans(r.mem, r.t0)
		if len(sp) != 1 || sp[0].k != 0 || sp[0].end > muteAt {
			t.Fatalf("heard %+v after a mute at %v", sp, muteAt)
		}
		// The sentence playing still ended on time; the bubble kept its
		// pace.
		if end := r.at(playback.SpeechEnd, three[0]); end < time.Second || end > time.Second+20*time.Millisecond {
			t.Errorf("muted sentence ended at %v, want ~1s", end)
		}
		// Unmuted, the next reply is heard again; while muted nothing new
		// was synthesised.
		before := len(e.requests())
		r.sp.SetMuted(false)
		r.say(three[2])
		r.idle()
		if got := len(e.requests()); got != before+1 {
			t.Errorf("%d syntheses for one sentence after unmuting", got-before)
		}
		if sp := spans(r.mem, r.t0); sp[len(sp)-1].k != 2 {
			t.Errorf("after unmuting heard %v", order(sp))
		}
	})
}

func TestGlobalMute(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &toneEngine{texts: three, dur: time.Second}
		r := newRig(t, e, voice.Config{})
		r.global.Set(true)
		r.say(three...)
		r.idle()
		if sp := spans(r.mem, r.t0); len(sp) != 0 {
			t.Fatalf("heard %v while everyone is muted", order(sp))
		}
		if n := len(e.requests()); n != 0 {
			t.Fatalf("%d syntheses while muted", n)
		}
		// The bubbles still showed, at the reading pace.
		if d := r.at(playback.SpeechEnd, three[0]) - r.at(playback.SpeechStart, three[0]); d != (playback.Silent{CharsPerSecond: 15}).Duration(three[0]) {
			t.Errorf("muted sentence shown for %v", d)
		}
		// A clip made while muted speaks if the mute is lifted before it
		// plays.
		r.say(three[0], three[1])
		time.Sleep(100 * time.Millisecond)
		r.global.Set(false)
		r.idle()
		if got := order(spans(r.mem, r.t0)); !slices.Equal(got, []int{1}) {
			t.Errorf("after the global mute lifted heard %v, want [1]", got)
		}
	})
}

func TestVolume(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &toneEngine{texts: three, dur: time.Second}
		r := newRig(t, e, voice.Config{Volume: 0.5})
		r.say(three[0])
		r.idle()
		full := 0.5 / math.Sqrt2 // a 0.5 sine's RMS
		sp := spans(r.mem, r.t0)
		if got, want := sp[0].rms, full*0.25; math.Abs(got-want) > 0.005 {
			t.Fatalf("volume 0.5: RMS %.4f, want %.4f (gain 0.25)", got, want)
		}
		// A change applies from the next chunk of the sentence playing.
		r.say(three[1])
		time.Sleep(500 * time.Millisecond)
		r.sp.Configure(voice.Config{Volume: 1})
		r.idle()
		var loud, soft int
		for _, c := range r.mem.Heard() {
			if c.At.Sub(r.t0) < 1100*time.Millisecond {
				continue
			}
			switch rms := rmsOf(c.Samples); {
			case math.Abs(rms-full) < 0.01:
				loud++
			case math.Abs(rms-full*0.25) < 0.01:
				soft++
			}
		}
		if loud == 0 || soft == 0 {
			t.Fatalf("the second sentence had %d soft and %d loud chunks, want both", soft, loud)
		}
	})
}

func TestSlowEngine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Synthesis is slower than playback, and the third sentence is
		// ready long before the second.
		texts := append(append([]string(nil), three...), "A fourth, past the look-ahead.")
		e := &toneEngine{texts: texts, dur: 500 * time.Millisecond, delay: map[string]time.Duration{
			texts[0]: 800 * time.Millisecond, texts[1]: 2 * time.Second, texts[2]: 300 * time.Millisecond, texts[3]: 300 * time.Millisecond}}
		r := newRig(t, e, voice.Config{})
		r.say(texts...)
		r.idle()
		sp := spans(r.mem, r.t0)
		if got := order(sp); !slices.Equal(got, []int{0, 1, 2, 3}) {
			t.Fatalf("heard %v, want [0 1 2 3]", got)
		}
		// Each sentence plays once it is ready and the one before it has
		// ended. A sentence that had to wait for its synthesis starts 10 ms
		// (the stream's start) after it is ready; one ready in time follows
		// the one before with no gap (its stream opened 10 ms before that
		// one's sound ended).
		want := []time.Duration{810 * time.Millisecond, 2010 * time.Millisecond, 2510 * time.Millisecond, 3010 * time.Millisecond}
		for i, s := range sp {
			if s.start != want[i] {
				t.Errorf("sentence %d heard from %v, want %v", i, s.start, want[i])
			}
		}
		// The look-ahead is bounded: the sentence playing and two more.
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.maxIn != 3 {
			t.Errorf("%d syntheses ran at once, want 3", e.maxIn)
		}
	})
}

func TestWhatTheEngineGets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		texts := []string{"Read the docs now.", "Quiet now.", "Plain."}
		e := &toneEngine{texts: texts, dur: 100 * time.Millisecond}
		r := newRig(t, e, voice.Config{Engine: voice.EngineEndpoint, TextMap: map[string]string{"👂": "whisper", "😆": "joyfully"}})
		r.player.Render("t1", []playback.Segment{
			{Speech: "Read [the docs](https://example.com/docs) 🎉 now."},
			{Cues: []cue.Cue{{EmotionText: "👂", Caption: "Lean in close."}}, Speech: "Quiet now."},
			{Cues: []cue.Cue{{EmotionText: "🤖"}}, Speech: "Plain."},
		})
		r.idle()
		// Syntheses run concurrently: compare in text order.
		got := e.requests()
		slices.SortFunc(got, func(a, b tts.Request) int { return strings.Compare(a.Text, b.Text) })
		want := []tts.Request{
			{Text: "Plain."}, // not a tag of the table: dropped
			{Text: "Quiet now.", Tone: "whisper", Caption: "Lean in close."},
			{Text: "Read the docs now."},
		}
		if !slices.Equal(got, want) {
			t.Fatalf("engine got %+v, want %+v", got, want)
		}
		// Free mode (no table): the tag goes as written.
		r.sp.Configure(voice.Config{Engine: voice.EngineEndpoint, Volume: 1})
		r.player.Render("t2", []playback.Segment{{Cues: []cue.Cue{{EmotionText: "softly"}}, Speech: "Plain."}})
		r.idle()
		if last := e.requests()[3]; last.Tone != "softly" {
			t.Fatalf("free mode tone %q", last.Tone)
		}
	})
}

func TestSilentTiming(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &toneEngine{texts: three, dur: time.Second}
		r := newRig(t, e, voice.Config{Engine: voice.EngineOff})
		r.say(three[0])
		r.idle()
		if r.sp.Voiced() {
			t.Error("the Off engine is voiced")
		}
		if n := len(e.requests()); n != 0 || len(r.mem.Heard()) != 0 {
			t.Fatalf("Off engine: %d syntheses, %d chunks heard", n, len(r.mem.Heard()))
		}
		want := (playback.Silent{CharsPerSecond: 15}).Duration(three[0])
		if d := r.at(playback.SpeechEnd, three[0]) - r.at(playback.SpeechStart, three[0]); d != want {
			t.Errorf("shown for %v, want %v", d, want)
		}
		// No sound server: the same silent timing, no synthesis.
		r.sp.Configure(voice.Config{Volume: 1})
		r.mem.SetFailure(errors.New("audio: no sound server"))
		r.say(three[1])
		r.idle()
		if n := len(e.requests()); n != 0 || r.sp.Voiced() {
			t.Fatalf("no server: %d syntheses, voiced %v", n, r.sp.Voiced())
		}
		// It comes back: the next sentence is heard.
		r.mem.SetFailure(nil)
		r.say(three[2])
		r.idle()
		if got := order(spans(r.mem, r.t0)); !slices.Equal(got, []int{2}) || !r.sp.Voiced() {
			t.Fatalf("server back: heard %v, voiced %v", got, r.sp.Voiced())
		}
	})
}

func TestMouthLevelsAreStampedWhenHeard(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &toneEngine{texts: three, dur: 500 * time.Millisecond}
		r := newRig(t, e, voice.Config{})
		r.say(three[0])
		r.idle()
		sp := spans(r.mem, r.t0)
		r.mu.Lock()
		defer r.mu.Unlock()
		if len(r.mouths) == 0 {
			t.Fatal("no mouth levels")
		}
		n, bright := 0, 0
		for _, m := range r.mouths {
			n += len(m.Levels)
			if m.Step != 20*time.Millisecond {
				t.Fatalf("step %v", m.Step)
			}
			if len(m.Tones) != len(m.Levels) {
				t.Fatalf("%d tones for %d levels", len(m.Tones), len(m.Levels))
			}
			for _, tone := range m.Tones {
				bright = max(bright, int(tone))
			}
		}
		if bright == 0 {
			t.Error("every tone is 0 for a 400 Hz tone")
		}
		if n != 25 {
			t.Errorf("%d levels for 500 ms, want 25", n)
		}
		if first := r.mouths[0].At.Sub(r.t0); first != sp[0].start {
			t.Errorf("first level stamped %v, sound heard from %v", first, sp[0].start)
		}
		for i := 1; i < len(r.mouths); i++ {
			prev := r.mouths[i-1]
			if want := prev.At.Add(time.Duration(len(prev.Levels)) * prev.Step); !r.mouths[i].At.Equal(want) {
				t.Errorf("levels %d stamped %v, want %v", i, r.mouths[i].At.Sub(r.t0), want.Sub(r.t0))
			}
		}
	})
}

func rmsOf(s []int16) float64 {
	var sum float64
	for _, v := range s {
		x := float64(v) / 32768
		sum += x * x
	}
	return math.Sqrt(sum / float64(len(s)))
}
