package playback

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

func TestSilentDuration(t *testing.T) {
	cases := []struct {
		cps  float64
		text string
		want time.Duration
	}{
		{10, "Hello.", 600 * time.Millisecond},
		{10, "", 0},
		{20, "はい。", 150 * time.Millisecond}, // code points, not bytes
		{0, "Hello.", 0},
		{-5, "Hello.", 0},
		{1, "ab", 2 * time.Second},
	}
	for _, tc := range cases {
		if got := (Silent{CharsPerSecond: tc.cps}).Duration(tc.text); got != tc.want {
			t.Errorf("Duration(%v, %q) = %v, want %v", tc.cps, tc.text, got, tc.want)
		}
	}
}

func TestSilentClipPlaysForItsDuration(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, err := Silent{CharsPerSecond: 10}.Synthesize(context.Background(), Line{Text: "Hello."})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := c.Play(context.Background()); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d != 600*time.Millisecond {
			t.Fatalf("played %v, want 600ms", d)
		}
	})
}

func TestSilentClipStopsOnCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _ := Silent{CharsPerSecond: 1}.Synthesize(context.Background(), Line{Text: "long line"})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel)
		start := time.Now()
		if err := c.Play(ctx); err != context.Canceled {
			t.Fatalf("err = %v, want canceled", err)
		}
		if d := time.Since(start); d != time.Second {
			t.Fatalf("stopped after %v, want 1s", d)
		}
	})
}

func TestSilentSynthesizeHonoursDoneContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Silent{}).Synthesize(ctx, Line{Text: "x"}); err == nil {
		t.Fatal("want error from a done context")
	}
}

func TestSilentInstantClip(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _ := Silent{}.Synthesize(context.Background(), Line{Text: "Hello there."})
		start := time.Now()
		if err := c.Play(context.Background()); err != nil {
			t.Fatal(err)
		}
		if time.Since(start) != 0 {
			t.Fatal("pace 0 should be instant")
		}
	})
}
