package clientctx

import (
	"testing"
	"time"
)

func TestMinutes(t *testing.T) {
	now := time.Date(2026, 9, 14, 15, 4, 14, 0, time.UTC)
	cases := []struct {
		ago  time.Duration
		want int64
	}{
		{0, 0},
		{29_999 * time.Millisecond, 0},
		{30 * time.Second, 1}, // halves round up
		{89_999 * time.Millisecond, 1},
		{90 * time.Second, 2},
		{12 * time.Minute, 12},
		{-5 * time.Minute, 0}, // future times clamp
		{48 * time.Hour, 2880},
	}
	for _, tc := range cases {
		if got := Minutes(now, now.Add(-tc.ago)); got != tc.want {
			t.Errorf("Minutes(%v ago) = %d, want %d", tc.ago, got, tc.want)
		}
	}
}
