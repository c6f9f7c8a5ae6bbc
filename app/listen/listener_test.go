package listen

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/audio"
	"yui/transport/push"
)

// track builds the microphone's audio: the room for total, with each
// burst mixed in at its time.
func track(total time.Duration, bursts ...burst) []float64 {
	a := room(total)
	for _, b := range bursts {
		a = mix(a, b.at, speech(b.dur, -25, b.f0))
	}
	return a[:n(total)]
}

type burst struct {
	at, dur time.Duration
	f0      float64
}

func hasLog(l *logs, prefix string) bool {
	return slices.ContainsFunc(l.all(), func(s string) bool { return strings.HasPrefix(s, prefix) })
}

func TestSpeechBecomesSpokenTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		e := newEnv(t, track(6*time.Second, burst{time.Second, 1500 * time.Millisecond, 140}), Config{On: true})
		time.Sleep(6 * time.Second)
		synctest.Wait()
		turns, at := e.Turns()
		if len(turns) != 1 || turns[0].Text != "what time is it" {
			t.Fatalf("turns %+v", turns)
		}
		if !strings.Contains(turns[0].ClientContext, "trigger: user message") {
			t.Errorf("client_context:\n%s", turns[0].ClientContext)
		}
		// The last syllable ends at 2.45 s; the hangover is 600 ms and the
		// detector sees audio a chunk at a time.
		lat := at[0].Sub(t0.Add(2450 * time.Millisecond))
		if lat < 600*time.Millisecond || lat > 600*time.Millisecond+Chunk {
			t.Errorf("end of speech → turn sent = %v", lat)
		}
		t.Logf("end of speech → turn sent: %v (instant transcriber)", lat)
		// The transcriber got the utterance with its pre-roll: 300 ms +
		// 1.45 s + 250 ms.
		c := e.tr.clips()
		if len(c) != 1 || c[0].Rate != Rate || c[0].Channels != 1 {
			t.Fatalf("clips %v", c)
		}
		if d := c[0].Duration(); d < 1950*time.Millisecond || d > 2050*time.Millisecond {
			t.Errorf("clip %v", d)
		}
		if got, want := e.modes(), []string{ModeListening, ModeHearing, ModeSending, ModeListening}; !slices.Equal(got, want) {
			t.Errorf("pill modes %v, want %v", got, want)
		}
		if !e.l.State().Open {
			t.Errorf("state does not say the microphone is open")
		}
	})
}

// say has the backend answer a typed turn with n sentences (3 s each).
func (e *env) say(sentences int) string {
	e.t.Helper()
	id := e.s.SendText("hi")
	synctest.Wait()
	var segs []push.Segment
	for i := range sentences {
		segs = append(segs, push.Segment{Speech: "Sentence number " + string(rune('a'+i)) + "."})
	}
	if err := e.srv.SendRender(chat, push.Render{TurnID: id, Source: "test", Segments: segs}); err != nil {
		e.t.Fatal(err)
	}
	synctest.Wait()
	return id
}

func TestBargeInStopsHerAndSendsStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		speechAt := 1500 * time.Millisecond
		e := newEnv(t, track(8*time.Second, burst{speechAt, 1200 * time.Millisecond, 220}), Config{On: true, BargeIn: true})
		id := e.say(3)
		time.Sleep(8 * time.Second)
		synctest.Wait()
		stops, stopAt := e.Stops()
		if len(stops) != 1 || !slices.Equal(stops[0], []string{id}) {
			t.Fatalf("stop frames %v, want one naming %s", stops, id)
		}
		start := t0.Add(speechAt)
		silentAfter := e.lastHeard().Sub(start)
		// Onset (50 ms) and the chunk it falls in (100 ms), then the
		// stream is closed: the speaker drops what was queued.
		if silentAfter < 0 || silentAfter > 50*time.Millisecond+Chunk+Chunk {
			t.Errorf("speech start → her silence = %v", silentAfter)
		}
		t.Logf("speech start → barge-in silence: %v; → stop frame: %v", silentAfter, stopAt[0].Sub(start))
		turns, _ := e.Turns()
		if len(turns) != 2 || turns[1].Text != "tell me a joke" {
			t.Fatalf("turns %+v", turns)
		}
		if !hasLog(e.logs, "listen_speech_start barge_in=true") {
			t.Errorf("logs %v", e.logs.all())
		}
	})
}

func TestHerOwnSentenceOnsetIsNotBargeIn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The microphone hears a voice the moment her sentence starts:
		// inside the guard window it is taken for hers.
		e := newEnv(t, track(5*time.Second, burst{20 * time.Millisecond, 800 * time.Millisecond, 140}), Config{On: true, BargeIn: true})
		e.say(1)
		time.Sleep(5 * time.Second)
		synctest.Wait()
		if stops, _ := e.Stops(); len(stops) != 0 {
			t.Fatalf("her own onset barged in: %v", stops)
		}
		if turns, _ := e.Turns(); len(turns) != 1 {
			t.Fatalf("her own voice became a turn: %+v", turns)
		}
		if !hasLog(e.logs, "listen_speech_dropped reason=her_voice") {
			t.Errorf("logs %v", e.logs.all())
		}
		if len(e.tr.clips()) != 0 {
			t.Errorf("her voice was sent to transcription")
		}
	})
}

func TestBargeInOffIgnoresSpeechWhileSheTalks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, track(8*time.Second, burst{1500 * time.Millisecond, 1200 * time.Millisecond, 220}), Config{On: true})
		e.say(2)
		time.Sleep(8 * time.Second)
		synctest.Wait()
		if stops, _ := e.Stops(); len(stops) != 0 {
			t.Fatalf("stop frames %v with barge-in off", stops)
		}
		if turns, _ := e.Turns(); len(turns) != 1 {
			t.Fatalf("turns %+v: speech while she talks was sent", turns)
		}
		var heard time.Duration
		for _, c := range e.out.Heard() {
			heard += c.Format.Duration(len(c.Samples))
		}
		if heard != 6*time.Second {
			t.Errorf("she was heard for %v, want both sentences (6 s)", heard)
		}
	})
}

func TestBlankTranscriptSendsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, track(5*time.Second, burst{time.Second, time.Second, 320}), Config{On: true})
		time.Sleep(5 * time.Second)
		synctest.Wait()
		if len(e.tr.clips()) != 1 {
			t.Fatalf("transcribed %d clips", len(e.tr.clips()))
		}
		if turns, _ := e.Turns(); len(turns) != 0 {
			t.Fatalf("a blank transcript was sent: %+v", turns)
		}
		if !hasLog(e.logs, "listen_transcript_blank") {
			t.Errorf("logs %v", e.logs.all())
		}
		if e.l.State().Mode != ModeListening {
			t.Errorf("mode %s", e.l.State().Mode)
		}
	})
}

func TestPushToTalkWithListeningOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, track(3*time.Second, burst{300 * time.Millisecond, time.Second, 140}), Config{})
		time.Sleep(time.Second)
		synctest.Wait()
		if e.mic.isOpen() || e.l.State().Open {
			t.Fatalf("microphone open with listening off")
		}
		e.l.Hold(true)
		synctest.Wait()
		if !e.mic.isOpen() {
			t.Fatalf("push-to-talk did not open the microphone")
		}
		// Held through 1.5 s of quiet after the speech: nothing is sent
		// until the release.
		time.Sleep(2800 * time.Millisecond)
		synctest.Wait()
		if turns, _ := e.Turns(); len(turns) != 0 {
			t.Fatalf("sent while held: %+v", turns)
		}
		e.l.Hold(false)
		synctest.Wait()
		turns, _ := e.Turns()
		if len(turns) != 1 || turns[0].Text != "what time is it" {
			t.Fatalf("turns %+v", turns)
		}
		if e.mic.isOpen() {
			t.Errorf("microphone still open after push-to-talk")
		}
		if st := e.l.State(); st.Mode != ModeOff || st.Open {
			t.Errorf("state %+v", st)
		}
	})
}

func TestPushToTalkStopsHerSpeech(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, track(3*time.Second, burst{300 * time.Millisecond, time.Second, 140}), Config{})
		id := e.say(2)
		time.Sleep(time.Second)
		e.l.Hold(true)
		time.Sleep(2 * time.Second)
		e.l.Hold(false)
		synctest.Wait()
		if stops, _ := e.Stops(); len(stops) != 1 || !slices.Equal(stops[0], []string{id}) {
			t.Fatalf("stops %v", stops)
		}
	})
}

func TestTranscriptionErrorShowsFix(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, track(5*time.Second, burst{time.Second, time.Second, 140}), Config{On: true})
		e.tr.mu.Lock()
		e.tr.err = &Error{Short: "listening: check the transcription key", Fix: FixKey, Err: errors.New("401")}
		e.tr.mu.Unlock()
		time.Sleep(5 * time.Second)
		synctest.Wait()
		st := e.l.State()
		if st.Mode != ModeError || st.Fix != FixKey || st.Error != "listening: check the transcription key" {
			t.Fatalf("state %+v", st)
		}
		if turns, _ := e.Turns(); len(turns) != 0 {
			t.Fatalf("turns %+v", turns)
		}
		// New settings clear it.
		e.l.SetTranscriber(e.tr)
		if st := e.l.State(); st.Mode != ModeListening {
			t.Errorf("after new settings: %+v", st)
		}
	})
}

func TestNoMicrophoneShowsFixAndRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, nil, Config{})
		e.mic.mu.Lock()
		e.mic.fail = audio.ErrNoServer
		e.mic.mu.Unlock()
		e.l.SetConfig(Config{On: true})
		synctest.Wait()
		if st := e.l.State(); st.Mode != ModeError || st.Fix != FixDevice {
			t.Fatalf("state %+v", st)
		}
		e.mic.mu.Lock()
		e.mic.fail = nil
		e.mic.mu.Unlock()
		time.Sleep(RetryOpen)
		synctest.Wait()
		if st := e.l.State(); st.Mode != ModeListening || !e.mic.isOpen() {
			t.Fatalf("after retry: %+v open=%v", st, e.mic.isOpen())
		}
		e.l.SetConfig(Config{On: false})
		synctest.Wait()
		if e.mic.isOpen() || e.l.State().Open || e.l.State().Mode != ModeOff {
			t.Fatalf("listening off left the microphone open: %+v", e.l.State())
		}
	})
}

func TestListenOnceRecordsOneUtteranceThenCloses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, track(6*time.Second, burst{500 * time.Millisecond, time.Second, 140}, burst{4 * time.Second, time.Second, 220}), Config{})
		e.l.ListenOnce()
		synctest.Wait()
		if !e.mic.isOpen() {
			t.Fatal("ListenOnce did not open the microphone")
		}
		time.Sleep(6 * time.Second)
		synctest.Wait()
		turns, _ := e.Turns()
		if len(turns) != 1 || turns[0].Text != "what time is it" {
			t.Fatalf("turns %+v: want the first utterance only", turns)
		}
		if e.mic.isOpen() {
			t.Errorf("microphone still open after the utterance")
		}
	})
}

func TestListenOnceGivesUpWithoutSpeech(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, track(20*time.Second), Config{})
		e.l.ListenOnce()
		time.Sleep(OnceWait + time.Second)
		synctest.Wait()
		if e.mic.isOpen() || e.l.State().Mode != ModeOff {
			t.Fatalf("still listening: %+v", e.l.State())
		}
	})
}
