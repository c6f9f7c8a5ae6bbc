package playback

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

func TestOnEventMayCallBackIntoPlayer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRecorder()
		var p *Player
		once := sync.Once{}
		p = New(Options{Voice: Silent{}, OnEvent: func(ev Event) {
			r.on(ev)
			if ev.Kind == SpeechEnd {
				once.Do(func() {
					p.Render("2", []Segment{seg("From the callback.")})
					_ = p.Owed()
					_ = p.Idle()
					p.SetMuted(false)
				})
			}
		}})
		t.Cleanup(p.Close)
		p.Render("1", []Segment{seg("Start.")})
		synctest.Wait()
		expect(t, r, "start 1 Start.", "end 1 Start.", "utt 1 Start.",
			"start 2 From the callback.", "end 2 From the callback.", "utt 2 From the callback.", "idle")
	})
}

func TestEventsNeverOverlap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var inside, overlaps atomic.Int32
		p := New(Options{Voice: Silent{CharsPerSecond: 100}, OnEvent: func(Event) {
			if inside.Add(1) > 1 {
				overlaps.Add(1)
			}
			time.Sleep(time.Millisecond)
			inside.Add(-1)
		}})
		t.Cleanup(p.Close)
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := range 10 {
					p.Render(fmt.Sprint(g), []Segment{seg(fmt.Sprintf("Line %d. More.", i), emo("happy")), seg("", emo("sad"))})
				}
			})
		}
		wg.Wait()
		time.Sleep(time.Minute)
		if overlaps.Load() != 0 {
			t.Fatalf("%d overlapping deliveries", overlaps.Load())
		}
	})
}

func TestConcurrentProducersAndInterrupts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRecorder()
		p := New(Options{Voice: Silent{CharsPerSecond: 50}, OnEvent: r.on})
		t.Cleanup(p.Close)
		var wg sync.WaitGroup
		for g := range 3 {
			wg.Go(func() {
				for i := range 20 {
					id := fmt.Sprint(g*100 + i)
					p.Speech(id, []Segment{seg("Streamed bit.")})
					p.Render(id, []Segment{seg("Streamed bit. Rest.")})
					time.Sleep(50 * time.Millisecond)
				}
			})
		}
		wg.Go(func() {
			for range 10 {
				time.Sleep(70 * time.Millisecond)
				p.Interrupt()
				p.SetMuted(true)
				p.SetMuted(false)
			}
		})
		wg.Wait()
		time.Sleep(time.Hour)
		synctest.Wait()
		if !p.Idle() {
			t.Fatal("player not idle after everything drained")
		}
		// Every speech_start is followed by its speech_end unless an
		// interrupt cut it; no speech_end appears without its start.
		open := map[string]bool{}
		r.mu.Lock()
		defer r.mu.Unlock()
		for _, ev := range r.events {
			switch ev.Kind {
			case SpeechStart:
				open[ev.TurnID+ev.Text] = true
			case SpeechEnd:
				if !open[ev.TurnID+ev.Text] {
					t.Fatalf("speech_end without start: %+v", ev)
				}
				delete(open, ev.TurnID+ev.Text)
			}
		}
	})
}

func TestCloseWhilePlayingStopsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, r := newSilent(t, 1)
		p.Render("1", []Segment{seg("A very long sentence indeed.")})
		synctest.Wait()
		start := time.Now()
		p.Close()
		if time.Since(start) != 0 {
			t.Fatal("Close waited for playback")
		}
		expect(t, r, "start 1 A very long sentence indeed.")
	})
}

func TestCloseWithStuckSynthesis(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newFakeVoice()
		v.gated = true
		p, _ := newFake(t, v, 2)
		p.Render("1", []Segment{seg("Never ready.")})
		synctest.Wait()
		p.Close()
		synctest.Wait()
		if _, _, _, cancelled, _ := v.snapshot(); len(cancelled) != 1 {
			t.Fatalf("synthesis not cancelled on close: %q", cancelled)
		}
	})
}

func TestNilOnEventAllowed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := New(Options{Voice: Silent{}})
		defer p.Close()
		p.Render("1", []Segment{seg("Nobody listens.")})
		synctest.Wait()
		if !p.Idle() {
			t.Fatal("not idle")
		}
	})
}
