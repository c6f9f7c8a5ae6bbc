package listen

import (
	"testing"
	"time"
)

func within(t *testing.T, what string, got, want, tol time.Duration) {
	t.Helper()
	if got < want-tol || got > want+tol {
		t.Errorf("%s = %v, want %v ± %v", what, got, want, tol)
	}
}

func kindsOf(evs []Event) []EventKind {
	var k []EventKind
	for _, e := range evs {
		k = append(k, e.Kind)
	}
	return k
}

// room is a quiet room: pink noise at -60 dBFS.
func room(d time.Duration) []float64 { return pink(d, -60, 7) }

func TestDetectorSpeechStartStopAndPreRoll(t *testing.T) {
	a := room(5 * time.Second)
	a = mix(a, 1*time.Second, speech(1500*time.Millisecond, -25, 140))
	d := NewDetector(DetectorConfig{Rate: Rate})
	evs := feed(d, pcm16(a))
	if len(evs) != 2 || evs[0].Kind != Start || evs[1].Kind != End {
		t.Fatalf("events %v, want start, end", kindsOf(evs))
	}
	// The first syllable rises from the room noise: its start is found
	// within a few frames of the burst.
	within(t, "start", at(evs[0].Offset), 1*time.Second, 40*time.Millisecond)
	// The last syllable's voiced part ends at 1 s + 1.45 s.
	within(t, "end", at(evs[1].Offset), 2450*time.Millisecond, 40*time.Millisecond)
	// Audio: 300 ms pre-roll + the speech + 250 ms tail.
	got := at(len(evs[1].Audio))
	within(t, "audio length", got, 300*time.Millisecond+1450*time.Millisecond+250*time.Millisecond, 50*time.Millisecond)
	// The pre-roll holds the room before the first syllable, and the first
	// syllable is kept whole: the audio's loud part begins 300 ms in.
	first := -1
	for i, v := range evs[1].Audio {
		if v > 300 || v < -300 {
			first = i
			break
		}
	}
	within(t, "first loud sample in the audio", at(first), 300*time.Millisecond, 30*time.Millisecond)
}

func TestDetectorEndsAfterHangover(t *testing.T) {
	a := room(4 * time.Second)
	a = mix(a, 500*time.Millisecond, speech(1000*time.Millisecond, -30, 200))
	d := NewDetector(DetectorConfig{Rate: Rate})
	c := n(Chunk)
	s := pcm16(a)
	var endAt time.Duration
	for i := 0; i < len(s); i += c {
		for _, e := range d.Push(s[i:min(i+c, len(s))]) {
			if e.Kind == End {
				endAt = at(i + c)
			}
		}
	}
	// Last loud frame at 1.45 s; closed 600 ms later, within the chunk.
	within(t, "closed at", endAt, 1450*time.Millisecond+600*time.Millisecond, 100*time.Millisecond)
}

func TestDetectorSteadyPinkNoiseOpensNothing(t *testing.T) {
	a := pink(20*time.Second, -35, 3)
	d := NewDetector(DetectorConfig{Rate: Rate, Sensitivity: 100})
	if evs := feed(d, pcm16(a)); len(evs) != 0 {
		t.Fatalf("steady pink noise gave %v", kindsOf(evs))
	}
}

func TestDetectorSilenceOpensNothing(t *testing.T) {
	d := NewDetector(DetectorConfig{Rate: Rate, Sensitivity: 100})
	if evs := feed(d, pcm16(silence(10*time.Second))); len(evs) != 0 {
		t.Fatalf("silence gave %v", kindsOf(evs))
	}
}

func TestDetectorSuddenSteadyNoiseClosesAndIsDropped(t *testing.T) {
	a := room(2 * time.Second)
	a = append(a, pink(30*time.Second, -20, 11)...)
	d := NewDetector(DetectorConfig{Rate: Rate})
	evs := feed(d, pcm16(a))
	if len(evs) != 2 || evs[0].Kind != Start || evs[1].Kind != Discard {
		t.Fatalf("events %v, want start then discard", kindsOf(evs))
	}
	within(t, "start", at(evs[0].Offset), 2*time.Second, 30*time.Millisecond)
	if evs[1].Reason != "steady" {
		t.Errorf("discard reason %q, want steady", evs[1].Reason)
	}
	// The floor adapts within its 3 s window: the utterance closes well
	// before the 15 s cap, and nothing reopens while the noise goes on.
	if got := at(evs[1].Offset); got > 2*time.Second+3500*time.Millisecond {
		t.Errorf("noise utterance lasted until %v", got)
	}
}

func TestDetectorCapsLongSpeech(t *testing.T) {
	a := room(1 * time.Second)
	a = append(a, speech(40*time.Second, -25, 150)...)
	d := NewDetector(DetectorConfig{Rate: Rate})
	evs := feed(d, pcm16(a))
	var ends []Event
	for _, e := range evs {
		if e.Kind == End {
			ends = append(ends, e)
		}
	}
	if len(ends) < 2 {
		t.Fatalf("events %v: want utterances capped at 15 s", kindsOf(evs))
	}
	if !ends[0].Capped {
		t.Errorf("first utterance not capped")
	}
	within(t, "capped utterance", at(len(ends[0].Audio)), 15*time.Second+300*time.Millisecond, 120*time.Millisecond)
}

func TestDetectorShortClickDropped(t *testing.T) {
	a := room(2 * time.Second)
	click := speech(120*time.Millisecond, -20, 300)
	a = mix(a, time.Second, click)
	d := NewDetector(DetectorConfig{Rate: Rate})
	evs := feed(d, pcm16(a))
	for _, e := range evs {
		if e.Kind == End {
			t.Fatalf("a 120 ms click became an utterance: %v", kindsOf(evs))
		}
	}
	if len(evs) == 2 && evs[1].Reason != "short" {
		t.Errorf("discard reason %q, want short", evs[1].Reason)
	}
}

func TestDetectorSensitivity(t *testing.T) {
	// Speech 7 dB over a -50 dBFS room (its syllables' peaks about 12 dB
	// over the quietest noise): heard at 100 (8 dB), not at 50 (16 dB).
	mk := func() []int16 {
		a := pink(4*time.Second, -50, 5)
		return pcm16(mix(a, time.Second, speech(time.Second, -43, 160)))
	}
	if evs := feed(NewDetector(DetectorConfig{Rate: Rate, Sensitivity: 50}), mk()); len(evs) != 0 {
		t.Errorf("sensitivity 50 heard quiet speech: %v", kindsOf(evs))
	}
	if evs := feed(NewDetector(DetectorConfig{Rate: Rate, Sensitivity: 100}), mk()); len(evs) != 2 || evs[1].Kind != End {
		t.Errorf("sensitivity 100 missed quiet speech: %v %+v", kindsOf(evs), evs)
	}
}

func TestDetectorDuckNeedsLouderSpeech(t *testing.T) {
	a := room(3 * time.Second)
	a = (mix(a, time.Second, speech(time.Second, -47, 160))) // 13 dB over the room
	if evs := feed(NewDetector(DetectorConfig{Rate: Rate}), pcm16(a)); len(evs) != 2 {
		t.Fatalf("undocked detector missed the speech: %v", kindsOf(evs))
	}
	d := NewDetector(DetectorConfig{Rate: Rate})
	d.SetDuck(Duck)
	if evs := feed(d, pcm16(a)); len(evs) != 0 {
		t.Errorf("ducked detector took speech 13 dB over the room: %v", kindsOf(evs))
	}
}

func TestDetectorHoldRecordsUntilRelease(t *testing.T) {
	d := NewDetector(DetectorConfig{Rate: Rate})
	feed(d, pcm16(room(time.Second)))
	evs := d.Hold(true)
	if len(evs) != 1 || evs[0].Kind != Start || !evs[0].Forced {
		t.Fatalf("hold gave %v", kindsOf(evs))
	}
	// Speech, then 2 s of quiet: still held, nothing closes.
	a := mix(room(3*time.Second), 0, speech(time.Second, -25, 150))
	if evs := feed(d, pcm16(a)); len(evs) != 0 {
		t.Fatalf("held utterance closed: %v", kindsOf(evs))
	}
	evs = d.Hold(false)
	if len(evs) != 1 || evs[0].Kind != End || !evs[0].Forced {
		t.Fatalf("release gave %v", kindsOf(evs))
	}
	within(t, "held audio", at(len(evs[0].Audio)), 300*time.Millisecond+3*time.Second, 20*time.Millisecond)
}
