package push

import "time"

// Backoff returns the reconnect delay after failed consecutive attempts since
// the last ready (0 for the first retry): 1 s, doubling per failed attempt,
// capped at 30 s. Negative values count as 0.
func Backoff(failed int) time.Duration {
	if failed < 0 {
		failed = 0
	}
	d := ReconnectFirst
	for i := 0; i < failed; i++ {
		d *= 2
		if d >= ReconnectCap {
			return ReconnectCap
		}
	}
	return d
}
