package playback

import (
	"bytes"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/cue"
)

// Renders of 200 KB each from backend turns, faster than they play: the
// queue holds at most MaxQueuedBytes of text not yet started (2,000 of
// them held 1.5 GB before), drops the oldest, logs it, and keeps playing.
func TestAFloodOfRendersIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs bytes.Buffer
		r := newRecorder()
		p := New(Options{Voice: Silent{CharsPerSecond: 15}, OnEvent: r.on,
			Logger: slog.New(slog.NewJSONHandler(&logs, nil)), Expendable: func(id string) bool { return id != "1" }})
		t.Cleanup(p.Close)
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		sentence := strings.Repeat("word ", 40) + "end. " // 205 bytes
		body := strings.Repeat(sentence, 1000)            // ~200 KB
		const renders = 100
		for i := range renders {
			p.Render(fmt.Sprintf("bg-%d", i), []Segment{seg(body)})
		}
		p.mu.Lock()
		n, b := p.pending()
		utts := len(p.queue)
		p.mu.Unlock()
		if n > DefaultMaxQueued || b > DefaultMaxQueuedBytes || utts > maxUtterances {
			t.Fatalf("queued %d sentences, %d bytes, %d utterances: over the bounds", n, b, utts)
		}
		var after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&after)
		// The renders alone are 20 MB; what is kept is a small part of it.
		if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 8<<20 {
			t.Fatalf("heap grew by %d MB after the flood", grown>>20)
		}
		if !strings.Contains(logs.String(), `"msg":"playback.dropped"`) || !strings.Contains(logs.String(), `"reason":"queue_full"`) {
			t.Fatalf("no playback.dropped line")
		}
		// The newest speech is what is left to play.
		p.mu.Lock()
		last := p.queue[len(p.queue)-1]
		p.mu.Unlock()
		if last.turnID != fmt.Sprintf("bg-%d", renders-1) {
			t.Fatalf("the newest render is not queued; last is %s", last.turnID)
		}
	})
}

// A client turn's speech is kept while backend-started turns' speech is
// dropped first, oldest first.
func TestBackendTurnsSpeechGoesFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRecorder()
		p := New(Options{Voice: Silent{CharsPerSecond: 10}, OnEvent: r.on, MaxQueued: 10,
			Logger: slog.New(slog.DiscardHandler), Expendable: func(id string) bool { return strings.HasPrefix(id, "bg") }})
		t.Cleanup(p.Close)
		p.Render("bg-old", []Segment{seg("Old one. Old two. Old three.")})
		p.Render("1", []Segment{seg("Mine one. Mine two. Mine three. Mine four.")})
		for i := range 5 {
			p.Render(fmt.Sprintf("bg-%d", i), []Segment{seg("News a. News b.")})
		}
		time.Sleep(time.Hour)
		synctest.Wait()
		var said []string
		for _, l := range r.lines() {
			if t, ok := strings.CutPrefix(l, "start "); ok {
				said = append(said, t)
			}
		}
		got := strings.Join(said, "|")
		for _, s := range []string{"1 Mine one.", "1 Mine two.", "1 Mine three.", "1 Mine four.", "bg-4 News a.", "bg-4 News b."} {
			if !strings.Contains(got, s) {
				t.Fatalf("%q was dropped; said %v", s, said)
			}
		}
		if strings.Contains(got, "Old three.") {
			t.Fatalf("the oldest backend speech was kept over newer: %v", said)
		}
		for _, l := range r.lines() {
			if strings.HasPrefix(l, "utt bg-old") {
				t.Fatalf("a trimmed utterance reported it played to its end: %s", l)
			}
		}
	})
}

// Silent cues waiting on a boundary are bounded too (newest kept).
func TestWaitingCuesAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := newSilent(t, 1)
		p.Render("1", []Segment{seg("A long sentence that takes a while to say.")})
		for i := range 10_000 {
			p.Render("bg", []Segment{{Cues: []cue.Cue{emo(fmt.Sprint("e", i))}}})
		}
		p.mu.Lock()
		w := len(p.waiting)
		lastCue := p.waiting[len(p.waiting)-1].cue.EmotionID
		p.mu.Unlock()
		if w > maxWaiting || lastCue != "e9999" {
			t.Fatalf("%d cues waiting (last %s)", w, lastCue)
		}
	})
}

// Frames of many turns, each opening an utterance behind a long sentence,
// cannot grow the queue's utterances without bound.
func TestUtterancesAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := New(Options{Voice: Silent{CharsPerSecond: 1}, Logger: slog.New(slog.DiscardHandler)})
		t.Cleanup(p.Close)
		p.Render("1", []Segment{seg("A long sentence that takes a while to say.")})
		for i := range 5000 {
			p.Speech(fmt.Sprint("bg-", i), []Segment{seg("Hi.")})
		}
		p.mu.Lock()
		n := len(p.queue)
		last := p.queue[n-1].turnID
		p.mu.Unlock()
		if n > maxUtterances || last != "bg-4999" {
			t.Fatalf("%d utterances queued (last %s)", n, last)
		}
	})
}
