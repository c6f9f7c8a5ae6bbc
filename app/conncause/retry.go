package conncause

import (
	"fmt"
	"time"
)

// Retrying is the plate's line while a link waits to try again after c:
// left is the time until the next attempt, every the delay when the
// reconnect schedule has reached its cap (0 before). A server that is not
// a push backend is said to be one: "not a push server (HTTP 404) —
// retrying in 4 s", then, at the cap, "… — retrying every 30 s"; any other
// cause reads "reconnecting in N s" ("reconnecting…" when the attempt is
// due).
func Retrying(c Cause, left, every time.Duration) string {
	secs := int((left + time.Second - 1) / time.Second)
	if c.Kind == NotPush {
		head := fmt.Sprintf("not a push server (HTTP %d)", c.Status)
		switch {
		case every > 0:
			return fmt.Sprintf("%s — retrying every %d s", head, int(every.Round(time.Second)/time.Second))
		case secs < 1:
			return head + " — retrying now"
		}
		return fmt.Sprintf("%s — retrying in %d s", head, secs)
	}
	if secs < 1 {
		return "reconnecting…"
	}
	return fmt.Sprintf("reconnecting in %d s", secs)
}
