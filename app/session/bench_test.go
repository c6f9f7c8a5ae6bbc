package session_test

import (
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"yui/app/session"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// benchRender is the frame both benchmarks use: a two-segment render.
func benchRender() push.Render {
	return push.Render{TurnID: "hermes-1", Source: "bench", Segments: []push.Segment{
		{Cues: []push.Cue{{EmotionID: "happy"}}, Speech: "All green."},
		{Cues: []push.Cue{{EmotionID: "curious", EmotionText: "👂"}}, Speech: "Want the slow ones listed?"},
	}}
}

func reportPercentiles(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	at := func(p float64) float64 { return float64(d[min(len(d)-1, int(p*float64(len(d))))].Nanoseconds()) }
	b.ReportMetric(at(0.50), "p50-ns")
	b.ReportMetric(at(0.99), "p99-ns")
}

// BenchmarkRenderFrameToSpeechStart: a render frame sent by a pushserver
// over real loopback → the session's first speech_start event for it
// (server encode and write, socket, push client read and decode, the
// session's actor, the player, back to the actor, OnEvent). Instant
// silent voice.
func BenchmarkRenderFrameToSpeechStart(b *testing.B) {
	ready := make(chan struct{}, 1)
	started := make(chan time.Time, 1)
	srv := pushserver.New(pushserver.Config{Key: testKey, Hooks: pushserver.Hooks{
		Connected: func(string, push.Hello) { ready <- struct{}{} },
	}})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer srv.Close()
	o := session.Options{ConfigDir: b.TempDir(), OnEvent: func(e session.Event) {
		if sp, ok := e.(session.SpeechStart); ok && sp.Text == "All green." {
			started <- time.Now()
		}
	}}
	o.Preset.ChatID, o.Preset.ChatBaseURL, o.Preset.Key = testChatID, hs.URL, testKey
	o.Transport = pushTransport(b, o.Preset, nil, nil, nil)
	s, err := session.New(o)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	s.Start()
	<-ready
	for !srv.Connected(testChatID) {
		time.Sleep(time.Millisecond)
	}
	r := benchRender()
	var lat []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := srv.SendRender(testChatID, r); err != nil {
			b.Fatal(err)
		}
		t1 := <-started
		lat = append(lat, t1.Sub(t0))
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

// BenchmarkRenderFrameDecodeFloor: the same frame through
// push.DecodeInbound only.
func BenchmarkRenderFrameDecodeFloor(b *testing.B) {
	raw, err := push.Encode(benchRender())
	if err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := push.DecodeInbound(raw); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}
