package console_test

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"yui/app/audio"
	"yui/app/audio/pulse"
	"yui/app/audio/pulse/pulsetest"
	"yui/app/listen/listentest"
	"yui/app/settings"
	"yui/app/tts"
	"yui/transport/push"
)

// Listening end to end: `yui console --voice --listen` on a private
// PulseAudio with a microphone (a null sink whose monitor is the default
// source). The user's speech is espeak-ng played into that microphone; the
// transcription endpoint is listentest (PocketSphinx with a grammar of the
// test phrases: real recognition of what the microphone heard). Her
// voice goes to the speaker sink, whose monitor is recorded (the user wears
// headphones: her voice does not reach the microphone).

var listenPhrases = []string{"what time is it", "tell me a joke", "please stop talking", "good morning", "open the window"}

// sayIntoMic plays text, spoken by espeak-ng, into the microphone and
// returns when its first and last audible samples were heard there: the
// recording of the microphone (mic) says when they arrived.
func sayIntoMic(t *testing.T, out audio.Output, mic *pulse.Recorder, text string) (start, end time.Time) {
	t.Helper()
	p, err := (&tts.System{Program: tts.ESpeak, Voice: "en-us", Rate: 130}).Synthesize(context.Background(), tts.Request{Text: text})
	if err != nil {
		t.Fatal(err)
	}
	sp := pulsetest.Spans(p, time.Second)
	if len(sp) == 0 {
		t.Fatalf("espeak-ng said nothing for %q", text)
	}
	ctx := context.Background()
	st, err := out.Open(ctx, audio.StreamOptions{Format: p.Format, Sink: pulsetest.Mic, Name: "the user"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	chunk := p.Format.Samples(100 * time.Millisecond)
	from := mic.Len()
	for off := 0; off < len(p.Samples); off += chunk {
		if _, err := st.Write(ctx, p.Samples[off:min(off+chunk, len(p.Samples))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	pulsetest.WaitRecorded(t, mic, time.Now().Add(300*time.Millisecond))
	heard := mic.PCM()
	heard.Samples = heard.Samples[from:]
	hs := pulsetest.Spans(heard, time.Second)
	if len(hs) == 0 {
		t.Fatalf("the microphone did not hear %q", text)
	}
	// A packet arrives when its last sample was heard: the arrival of the
	// packet holding the span's first sample bounds it from above.
	first := from + heard.Format.Samples(hs[0][0])
	last := from + heard.Format.Samples(hs[len(hs)-1][1]) - 1
	return mic.Arrived(first), mic.Arrived(last)
}

func needListenTools(t *testing.T) {
	t.Helper()
	if !tts.Available(tts.ESpeak) {
		if os.Getenv("CI") == "true" {
			t.Fatal("espeak-ng is not installed (CI=true: the listening tests must run)")
		}
		t.Skip("espeak-ng is not installed")
	}
}

func TestListenEndToEnd(t *testing.T) {
	needListenTools(t)
	srv := pulsetest.StartWithMic(t)
	rec := srv.Record(t, pulsetest.Speaker, recRate)
	pulsetest.WaitRecorded(t, rec, time.Now())
	micRec := srv.Record(t, pulsetest.Mic, 16000)
	pulsetest.WaitRecorded(t, micRec, time.Now())
	stt := listentest.Start(t, listenPhrases)
	dir := voiceSetup(t, srv, settings.Voice{Engine: "system", Program: tts.ESpeak, SystemVoice: "en-us"})
	st, _, err := settings.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	must(t, st.Update(func(s *settings.Settings) {
		s.Listen = settings.Listen{BaseURL: stt.URL, Key: "sk-listen", Language: "en", BargeIn: true}
	}))
	user := pulse.New(pulse.Options{Server: srv.Addr})
	defer user.Close()
	b := newBackend(t)
	logs := t.TempDir()
	t.Cleanup(func() {
		if t.Failed() {
			out, _ := exec.Command("sh", "-c", "cat "+logs+"/*").CombinedOutput()
			t.Logf("app log:\n%s", out)
		}
	})
	c := startConsole(t, "--json", "--voice", "--listen", "--config-dir", dir, "--log-dir", logs, "--url", b.http.URL, "--key", e2eKey)
	c.waitEvent("socket", map[string]any{"state": "ready"})
	chatID := chatOf(t, b)
	c.waitEvent("listen", map[string]any{"mode": "listening", "open": true})

	// 1. An utterance into the microphone becomes a spoken turn.
	_, end := sayIntoMic(t, user, micRec, "tell me a joke")
	tu := recvTurn(t, b)
	sentAfter := time.Since(end)
	if tu.Text != "tell me a joke" {
		t.Fatalf("turn text %q, want the transcript", tu.Text)
	}
	if !strings.Contains(tu.ClientContext, "trigger: user message") {
		t.Errorf("client_context:\n%s", tu.ClientContext)
	}
	c.waitEvent("turn_sent", map[string]any{"text": "tell me a joke"})
	reqs := stt.Requests()
	if len(reqs) != 1 || reqs[0].Auth != "Bearer sk-listen" || reqs[0].Language != "en" || reqs[0].Rate != 16000 || reqs[0].Channels != 1 {
		t.Fatalf("transcription requests %+v", reqs)
	}
	t.Logf("end of speech → turn at the backend: %v (transcription %v of it)", sentAfter, reqs[0].Took)
	if sentAfter > 5*time.Second {
		t.Errorf("end of speech → turn sent took %v", sentAfter)
	}

	// 2. Barge-in: she tells a long story; the user speaks over her; she
	// stops within a buffer of the detection, the turn is stopped with a
	// stop frame, and what the user said is the next turn.
	id := tu.TurnID
	long := strings.Repeat("This story goes on and on without an end in sight. ", 4)
	must(t, b.srv.SendRender(chatID, push.Render{TurnID: id, Source: "e2e", Segments: []push.Segment{{Speech: long}}}))
	c.waitEvent("speech_start", map[string]any{"turn_id": id})
	pulsetest.WaitRecorded(t, rec, time.Now().Add(1200*time.Millisecond))
	start, _ := sayIntoMic(t, user, micRec, "please stop talking")
	var stopped []string
	select {
	case stopped = <-b.stops:
	case <-time.After(hangLimit):
		t.Fatal("no stop frame after barge-in")
	}
	if !slices.Equal(stopped, []string{id}) {
		t.Errorf("stop frame names %v, want [%s]", stopped, id)
	}
	tu2 := recvTurn(t, b)
	if tu2.Text != "please stop talking" {
		t.Errorf("turn after barge-in %q", tu2.Text)
	}
	pulsetest.WaitRecorded(t, rec, start.Add(2*time.Second))
	p := rec.PCM()
	from := start.Add(-time.Second)
	p.Samples = p.Samples[p.Format.Samples(from.Sub(rec.Start())):]
	sp := pulsetest.Spans(p, 200*time.Millisecond)
	if len(sp) == 0 {
		t.Fatal("she was not heard before the barge-in")
	}
	silentAfter := sp[len(sp)-1][1] - time.Second
	t.Logf("speech start → barge-in silence: %v", silentAfter)
	// Detection: 50 ms of speech and the 100 ms chunk it falls in; then
	// her stream drops its 100 ms buffer.
	if silentAfter > 500*time.Millisecond {
		t.Errorf("she went on %v after the user started speaking", silentAfter)
	}
	must(t, b.srv.SendTurnEnd(chatID, id, nil))
	must(t, b.srv.SendTurnEnd(chatID, tu2.TurnID, nil))
	c.finish()
}
