package proactive

import (
	"context"
	"time"
)

// TickEvery is how often Run ticks (in the engine's time).
const TickEvery = 15 * time.Second

// Run ticks every `every` of real time, reading the time from now, and
// hands each turn decided to fire, until ctx ends.
func (e *Engine) Run(ctx context.Context, now func() time.Time, every time.Duration, fire func(Fire)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if f, ok := e.Tick(now()); ok {
			fire(f)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Scaled is a clock that runs scale times faster than the real one from
// the moment it is made (tests compress a day: docs/proactive.md); scale
// 1 or less is time.Now.
func Scaled(scale float64) func() time.Time {
	if scale <= 1 {
		return time.Now
	}
	start := time.Now()
	return func() time.Time {
		return start.Add(time.Duration(float64(time.Since(start)) * scale))
	}
}
