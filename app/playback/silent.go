package playback

import (
	"context"
	"time"
	"unicode/utf8"
)

// Silent is the voice that says nothing: each line "plays" for its length
// in code points divided by CharsPerSecond. A pace of 0 (or less) plays
// every line instantly. Time is measured with time.Timer, so
// testing/synctest fakes it.
type Silent struct {
	CharsPerSecond float64
}

// Duration returns how long text plays at the voice's pace.
func (s Silent) Duration(text string) time.Duration {
	if s.CharsPerSecond <= 0 {
		return 0
	}
	n := utf8.RuneCountInString(text)
	return time.Duration(float64(n) / s.CharsPerSecond * float64(time.Second))
}

// Synthesize returns a clip of the line's duration. It never fails unless
// ctx is already done.
func (s Silent) Synthesize(ctx context.Context, line Line) (Clip, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return silentClip(s.Duration(line.Text)), nil
}

type silentClip time.Duration

func (c silentClip) Play(ctx context.Context) error {
	if c <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(time.Duration(c))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
