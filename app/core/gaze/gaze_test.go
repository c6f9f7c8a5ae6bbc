package gaze_test

import (
	"context"
	"errors"
	"image"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/core/gaze"
	"yui/app/view"
)

// screen is a fake pointer and window, and the messages sent.
type screen struct {
	mu      sync.Mutex
	x, y    int
	win     image.Rectangle
	visible bool
	queries int
	sent    []view.Pointer
}

func (s *screen) config() gaze.Config {
	return gaze.Config{
		Pointer: func() (int, int, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.queries++
			return s.x, s.y, nil
		},
		Window: func() (image.Rectangle, bool) {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.win, s.visible
		},
		Send: func(p view.Pointer) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.sent = append(s.sent, p)
		},
		Interval: 50 * time.Millisecond,
		Reach:    100,
	}
}

func (s *screen) move(x, y int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.x, s.y = x, y
}

func (s *screen) took() ([]view.Pointer, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sent, q := s.sent, s.queries
	s.sent, s.queries = nil, 0
	return sent, q
}

func newScreen() *screen {
	return &screen{win: image.Rect(1000, 500, 1200, 800), visible: true}
}

// A burst of motion is reported at most once per Interval, the last
// position always arrives, and nothing happens while the pointer is still.
func TestMotionIsRateLimitedAndEndsOnTheLastPosition(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScreen()
		f := gaze.New(s.config())
		start := time.Now()
		for i := range 100 { // 1 s of motion, a move every 10 ms
			s.move(950+i, 600)
			f.Moved()
			time.Sleep(10 * time.Millisecond)
		}
		synctest.Wait()
		time.Sleep(time.Second)
		synctest.Wait()
		sent, queries := s.took()
		if elapsed := 2 * time.Second; time.Since(start) != elapsed {
			t.Fatalf("time ran %v", time.Since(start))
		}
		// 1 s at one report per 50 ms: 20, plus the trailing one.
		if len(sent) < 19 || len(sent) > 21 || queries != len(sent) {
			t.Fatalf("%d reports, %d queries for 100 moves over 1 s, want about 20", len(sent), queries)
		}
		if last := sent[len(sent)-1]; last != (view.Pointer{X: 1049 - 1000, Y: 100, Near: true}) {
			t.Fatalf("last report %+v, want the last position", last)
		}
		// Still: no query, no report, however long.
		time.Sleep(time.Hour)
		synctest.Wait()
		if sent, queries := s.took(); len(sent) != 0 || queries != 0 {
			t.Fatalf("while still: %d reports, %d queries", len(sent), queries)
		}
	})
}

// Far from her nothing is sent; coming near sends positions relative to
// her window; leaving sends one Near=false; hiding her counts as leaving.
func TestOnlyNearHerAndOneGoodbye(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScreen()
		f := gaze.New(s.config())
		step := func(x, y int) []view.Pointer {
			s.move(x, y)
			f.Moved()
			time.Sleep(time.Second)
			synctest.Wait()
			sent, _ := s.took()
			return sent
		}
		if got := step(10, 10); len(got) != 0 {
			t.Fatalf("far away sent %+v", got)
		}
		if got := step(905, 450); len(got) != 1 || got[0] != (view.Pointer{X: -95, Y: -50, Near: true}) {
			t.Fatalf("near (outside her window) sent %+v", got)
		}
		if got := step(905, 450); len(got) != 0 {
			t.Fatalf("the same position again sent %+v", got)
		}
		if got := step(1100, 650); len(got) != 1 || got[0] != (view.Pointer{X: 100, Y: 150, Near: true}) {
			t.Fatalf("over her sent %+v", got)
		}
		if got := step(10, 10); len(got) != 1 || got[0] != (view.Pointer{}) {
			t.Fatalf("leaving sent %+v, want one Near=false", got)
		}
		if got := step(20, 10); len(got) != 0 {
			t.Fatalf("far again sent %+v", got)
		}
		step(1100, 650)
		s.mu.Lock()
		s.visible = false
		s.mu.Unlock()
		if got := step(1101, 650); len(got) != 1 || got[0] != (view.Pointer{}) {
			t.Fatalf("hidden sent %+v, want one Near=false", got)
		}
	})
}

// Run subscribes through Watch and, when it ends, says the pointer left.
func TestRunEndsWithGoodbye(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScreen()
		moves := make(chan struct{})
		cfg := s.config()
		watching := false
		cfg.Watch = func(ctx context.Context, moved func()) error {
			watching = true
			defer func() { watching = false }()
			for {
				select {
				case <-moves:
					moved()
				case <-ctx.Done():
					return ctx.Err()
				}
			}
		}
		f := gaze.New(cfg)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- f.Run(ctx) }()
		s.move(1100, 650)
		moves <- struct{}{}
		moves <- struct{}{} // within Interval: a trailing report is pending
		synctest.Wait()
		if !watching {
			t.Fatal("Run does not watch")
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("Run: %v", err)
		}
		time.Sleep(time.Second) // the trailing report was dropped
		synctest.Wait()
		sent, _ := s.took()
		if len(sent) != 2 || sent[0] != (view.Pointer{X: 100, Y: 150, Near: true}) || sent[1] != (view.Pointer{}) {
			t.Fatalf("sent %+v, want the position then Near=false", sent)
		}

		cfg.Watch = func(context.Context, func()) error { return errors.New("no XInput2") }
		if err := gaze.New(cfg).Run(t.Context()); err == nil {
			t.Fatal("a failed watch is not reported")
		}
	})
}
