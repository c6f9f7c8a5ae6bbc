package console_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"yui/app/audio"
	"yui/app/audio/pulse"
	"yui/app/audio/pulse/pulsetest"
	"yui/app/settings"
	"yui/app/tts"
	"yui/app/tts/ttstest"
	"yui/transport/push"
)

// The voice end to end: the console (`yui console --voice`) speaks a
// reply from a real push backend on a private PulseAudio server, whose
// speaker's monitor is recorded. What reached the speaker is checked:
// every sentence, in order, audible, and nothing after /stop. Without
// pulseaudio or espeak-ng these tests skip, unless CI=true.

const (
	recRate = 48000
	// sentenceGap joins sound separated by less than this into one
	// sentence: espeak-ng pauses inside a sentence are shorter, and every
	// clip ends with ~300 ms of silence.
	sentenceGap = 200 * time.Millisecond
)

var sentences = []string{
	"Hi.",
	"The quick brown fox jumps over the lazy dog near the river bank today.",
	"See you soon.",
}

func spans(p audio.PCM) [][2]time.Duration { return pulsetest.Spans(p, sentenceGap) }

// waitFillerHeard waits until the recording shows sound after since (the
// turn's thinking filler, spoken as soon as a turn goes out) followed by
// quiet of silence, so a reply rendered next is heard alone.
func waitFillerHeard(t *testing.T, r *pulse.Recorder, since time.Time, quiet time.Duration) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		p := r.PCM()
		if skip := p.Format.Samples(since.Sub(r.Start())); skip > 0 && skip < len(p.Samples) {
			p.Samples = p.Samples[skip:]
			if sp := spans(p); len(sp) > 0 && p.Duration()-sp[len(sp)-1][1] >= quiet {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the thinking filler was not heard")
}

// voiceSetup writes a settings file whose active preset speaks with v,
// and points the console at the private server.
func voiceSetup(t *testing.T, srv *pulsetest.Server, v settings.Voice) (dir string) {
	t.Helper()
	dir = t.TempDir()
	st, _, err := settings.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	must(t, st.Update(func(s *settings.Settings) { s.Presets[0].Voice = v }))
	t.Setenv("PULSE_SERVER", srv.Addr)
	return dir
}

// checkOrder checks what the speaker played while each sentence of turn
// id was showing (from its speech_start to the next one's, as the console
// reported them): the sound of that sentence, audible — as much sound as
// the sentence has alone (the three sentences differ by a factor of 3 or
// more, so a swap or a loss shows) — and nothing before the first.
func checkOrder(t *testing.T, c *consoleRun, rec *pulse.Recorder, id string, from time.Time, want []time.Duration) {
	t.Helper()
	var starts []time.Time
	var end time.Time
	for _, m := range c.seen { // every event read so far (pending ones are in it too)
		if m["turn_id"] != id {
			continue
		}
		ts := time.UnixMilli(int64(m["ts"].(float64)))
		switch m["event"] {
		case "speech_start":
			starts = append(starts, ts)
		case "speech_end":
			end = ts
		}
	}
	if len(starts) != len(want) {
		t.Fatalf("%d speech_start events, want %d", len(starts), len(want))
	}
	if before := pulsetest.AudibleTime(pulsetest.Slice(rec, from, starts[0].Add(-50*time.Millisecond))); before > 0 {
		t.Errorf("%v of sound before the first sentence started", before)
	}
	for i := range starts {
		to := end.Add(200 * time.Millisecond)
		if i+1 < len(starts) {
			to = starts[i+1].Add(-30 * time.Millisecond)
		}
		p := pulsetest.Slice(rec, starts[i].Add(-30*time.Millisecond), to)
		got := pulsetest.AudibleTime(p)
		t.Logf("sentence %d: %v of sound while it showed, %v alone", i, got, want[i])
		if got < want[i]*3/4 || got > want[i]*5/4 {
			t.Errorf("sentence %d: %v of sound while it showed; alone it has %v", i, got, want[i])
		}
		if r := audio.RMS(p.Samples); r < pulsetest.Floor/2 {
			t.Errorf("sentence %d: RMS %.3f, barely audible", i, r)
		}
	}
}

func TestVoiceEndToEndSystemVoice(t *testing.T) {
	srv := pulsetest.Start(t)
	rec := srv.Record(t, pulsetest.Speaker, recRate)
	pulsetest.WaitRecorded(t, rec, time.Now())
	voice := settings.Voice{Engine: "system", Program: tts.ESpeak, SystemVoice: "en-us"}
	if !tts.Available(tts.ESpeak) {
		if os.Getenv("CI") == "true" {
			t.Fatal("espeak-ng is not installed (CI=true: the voice tests must run)")
		}
		t.Skip("espeak-ng is not installed")
	}
	var want []time.Duration
	for _, s := range sentences {
		p, err := (&tts.System{Program: tts.ESpeak, Voice: "en-us"}).Synthesize(context.Background(), tts.Request{Text: s})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, pulsetest.AudibleTime(p))
	}
	dir := voiceSetup(t, srv, voice)
	b := newBackend(t)
	logs := t.TempDir()
	t.Cleanup(func() {
		if t.Failed() {
			out, _ := exec.Command("sh", "-c", "cat "+logs+"/*").CombinedOutput()
			t.Logf("app log:\n%s", out)
		}
	})
	c := startConsole(t, "--json", "--voice", "--config-dir", dir, "--log-dir", logs, "--url", b.http.URL, "--key", e2eKey)
	c.waitEvent("socket", map[string]any{"state": "ready"})
	chatID := chatOf(t, b)

	// 1. A reply of three sentences is heard whole, in order.
	sentAt := time.Now()
	c.line("say three things")
	id := c.waitEvent("turn_sent", map[string]any{"text": "say three things"})["turn_id"].(string)
	recvTurn(t, b)
	waitFillerHeard(t, rec, sentAt, 400*time.Millisecond)
	start := time.Now()
	segs := make([]push.Segment, len(sentences))
	for i, s := range sentences {
		segs[i] = push.Segment{Speech: s}
	}
	must(t, b.srv.SendRender(chatID, push.Render{TurnID: id, Source: "e2e", Segments: segs}))
	must(t, b.srv.SendTurnEnd(chatID, id, nil))
	c.waitEvent("speech_end", map[string]any{"turn_id": id, "text": sentences[2]})
	pulsetest.WaitRecorded(t, rec, time.Now().Add(300*time.Millisecond))
	checkOrder(t, c, rec, id, start, want)

	// 2. /stop silences the sentence playing.
	c.line("tell me a long story")
	id2 := c.waitEvent("turn_sent", map[string]any{"text": "tell me a long story"})["turn_id"].(string)
	recvTurn(t, b)
	long := strings.Repeat("This story goes on and on without an end in sight. ", 4)
	must(t, b.srv.SendRender(chatID, push.Render{TurnID: id2, Source: "e2e", Segments: []push.Segment{{Speech: long}}}))
	c.waitEvent("speech_start", map[string]any{"turn_id": id2})
	// Let it be heard for a moment (the recording shows it), then stop.
	pulsetest.WaitRecorded(t, rec, time.Now().Add(700*time.Millisecond))
	stopAt := time.Now()
	c.line("/stop")
	select {
	case <-b.stops:
	case <-time.After(20 * time.Second):
		t.Fatal("no stop frame")
	}
	pulsetest.WaitRecorded(t, rec, stopAt.Add(2*time.Second))
	p := rec.PCM()
	p.Samples = p.Samples[p.Format.Samples(stopAt.Add(-500*time.Millisecond).Sub(rec.Start())):]
	sp := spans(p)
	if len(sp) == 0 {
		t.Fatal("the long story was never heard")
	}
	// Offsets are from stopAt - 500 ms.
	end := sp[len(sp)-1][1] - 500*time.Millisecond
	t.Logf("sound ended %v after /stop was typed", end)
	// The stream drops its buffer (100 ms) at once; the rest is the
	// console reading the line on a busy machine.
	if end > 500*time.Millisecond {
		t.Fatalf("sound went on %v after /stop (the story is over 10 s long)", end)
	}
	c.finish()
}

func TestVoiceEndToEndSpeechEndpoint(t *testing.T) {
	srv := pulsetest.Start(t)
	rec := srv.Record(t, pulsetest.Speaker, recRate)
	pulsetest.WaitRecorded(t, rec, time.Now())
	tsrv := ttstest.Start(t, ttstest.Options{Key: "sk-speech-1"})
	voice := settings.Voice{Engine: "endpoint", BaseURL: tsrv.URL, Key: "sk-speech-1", Model: "tts-test", EndpointVoice: "nova",
		Format: "pcm", EmotionTextMap: map[string]string{"😆": "joyfully", "👂": "in a whisper"}}
	dir := voiceSetup(t, srv, voice)
	b := newBackend(t)
	c := startConsole(t, "--json", "--voice", "--config-dir", dir, "--log-dir", t.TempDir(), "--url", b.http.URL, "--key", e2eKey)
	c.waitEvent("socket", map[string]any{"state": "ready"})
	chatID := chatOf(t, b)
	// The hello declared the tag table: enum mode.
	if h, ok := b.srv.Hello(chatID); !ok || h.Vocabulary.EmotionTextMode != "enum" || h.Vocabulary.EmotionTextMap["👂"] != "in a whisper" {
		t.Fatalf("hello vocabulary %+v", h.Vocabulary)
	}
	sentAt := time.Now()
	c.line("whisper something")
	id := c.waitEvent("turn_sent", map[string]any{"text": "whisper something"})["turn_id"].(string)
	recvTurn(t, b)
	waitFillerHeard(t, rec, sentAt, 400*time.Millisecond)
	start := time.Now()
	fillerRequests := len(tsrv.Requests())
	must(t, b.srv.SendRender(chatID, push.Render{TurnID: id, Source: "e2e", Segments: []push.Segment{
		{Cues: []push.Cue{{EmotionText: "👂", Caption: "Lean in close."}}, Speech: sentences[0]},
		{Cues: []push.Cue{{EmotionText: "😆"}}, Speech: sentences[1] + " 🎉"},
		{Speech: "[" + strings.TrimSuffix(sentences[2], ".") + "](https://example.com)."},
	}}))
	must(t, b.srv.SendTurnEnd(chatID, id, nil))
	c.waitEvent("speech_end", map[string]any{"turn_id": id, "text": "[See you soon](https://example.com)."})
	pulsetest.WaitRecorded(t, rec, time.Now().Add(300*time.Millisecond))

	reqs := tsrv.Requests()[fillerRequests:]
	if len(reqs) != 3 {
		t.Fatalf("%d speech requests", len(reqs))
	}
	byInput := map[string]ttstest.Request{}
	for _, r := range reqs {
		if r.Auth != "Bearer sk-speech-1" || r.Voice != "nova" || r.ResponseFormat != "pcm" || r.Model != "tts-test" {
			t.Errorf("request carried %+v", r)
		}
		byInput[r.Input] = r
	}
	for input, instr := range map[string]string{
		sentences[0]: "Tone: in a whisper. Lean in close.",
		sentences[1]: "Tone: joyfully.",
		sentences[2]: "", // the link read as its label; no tag
	} {
		r, ok := byInput[input]
		if !ok {
			t.Errorf("no request with input %q (got %v)", input, reqs)
			continue
		}
		if r.Instructions != instr {
			t.Errorf("%q: instructions %q, want %q", input, r.Instructions, instr)
		}
	}
	// What the server sent is what was heard, in order.
	var want []time.Duration
	for _, s := range sentences {
		p, err := (&tts.Endpoint{BaseURL: tsrv.URL, Key: "sk-speech-1", Voice: "nova", Format: "pcm"}).Synthesize(context.Background(), tts.Request{Text: s})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, pulsetest.AudibleTime(p))
	}
	checkOrder(t, c, rec, id, start, want)
	c.finish()
	if strings.Contains(fmt.Sprint(c.seen), "sk-speech-1") {
		t.Fatal("the speech key reached the console's output")
	}
}
