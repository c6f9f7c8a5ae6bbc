package pet_test

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"yui/app/pet"
	"yui/app/playback"
	"yui/app/session"
	"yui/app/settings"
)

// BenchmarkSentenceEndToSpeechStart: a Chat Completions server streams a
// first delta holding a whole sentence and the start of the next; once the
// session has played the first sentence (its speech_end: the delta was
// read, cut and the player is idle), the clock starts and the server sends
// the delta that ends the second; the session's speech_start for it stops
// the clock. The path is
// the HTTP stream, the SSE reader, the sentence cut, the session's actor
// and the player (instant silent voice). Reports p50 and p99 (goal p99 <
// 1 ms) and, as the baseline in the same run, the loopback write→read
// time of the same delta with nothing behind it.
func BenchmarkSentenceEndToSpeechStart(b *testing.B) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{"content":"Ready. All green"}}]}`+"\n\n")
		w.(http.Flusher).Flush()
		<-release
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{"content":". "}}]}`+"\n\n")
		w.(http.Flusher).Flush()
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	started := make(chan time.Time, 16)
	first := make(chan struct{}, 16)
	ended := make(chan struct{}, 16)
	p := settings.Preset{ID: "p-00000001", Name: "Yui", ChatAPI: pet.ChatCompletions, ChatBaseURL: srv.URL, ChatID: "yui-00000001"}
	ch, err := pet.New(pet.Config{Preset: p, ConfigDir: b.TempDir(), Voice: playback.Silent{},
		OnEvent: func(e session.Event) {
			switch e := e.(type) {
			case session.SpeechStart:
				if e.Text == "All green." {
					started <- time.Now()
				}
			case session.SpeechEnd:
				if e.Text == "Ready." {
					first <- struct{}{}
				}
			case session.TurnEnd:
				ended <- struct{}{}
			}
		}})
	if err != nil {
		b.Fatal(err)
	}
	defer ch.Session.Close()
	ch.Session.Start()
	// The baseline: the same delta over a loopback stream read with
	// bufio, nothing behind it.
	braw := make(chan struct{})
	raw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.(http.Flusher).Flush()
		for range braw {
			fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{"content":". "}}]}`+"\n\n")
			w.(http.Flusher).Flush()
		}
	}))
	defer raw.Close()
	defer close(braw)
	resp, err := http.Get(raw.URL)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	var lat, base []time.Duration
	for b.Loop() {
		t0 := time.Now()
		braw <- struct{}{}
		if _, err := br.ReadString('\n'); err != nil {
			b.Fatal(err)
		}
		br.ReadString('\n')
		base = append(base, time.Since(t0))
		ch.Session.SendText("status?")
		<-first // the first delta is read and played (not timed)
		t0 = time.Now()
		release <- struct{}{}
		t1 := <-started
		lat = append(lat, t1.Sub(t0))
		<-ended
	}
	slices.Sort(lat)
	slices.Sort(base)
	pct := func(d []time.Duration, p int) float64 { return float64(d[(len(d)*p)/100].Microseconds()) }
	b.ReportMetric(pct(lat, 50), "p50-µs")
	b.ReportMetric(pct(lat, 99), "p99-µs")
	b.ReportMetric(pct(base, 50), "base-p50-µs")
	b.ReportMetric(pct(base, 99), "base-p99-µs")
}
