package conncause

import (
	"strconv"
	"time"

	"yui/app/phrase"
)

// Retrying is the plate's line while a link waits to try again after c:
// left is the time until the next attempt, every the delay when the
// reconnect schedule has reached its cap (0 before). A server that is not
// a push backend is said to be one: "not a push server (HTTP 404) —
// retrying in 4 s", then, at the cap, "… — retrying every 30 s"; any other
// cause reads "reconnecting in N s" ("reconnecting…" when the attempt is
// due).
func Retrying(c Cause, left, every time.Duration) string {
	return RetryingPhrase(c, left, every).English()
}

// RetryingPhrase is Retrying's line as a phrase for the page.
func RetryingPhrase(c Cause, left, every time.Duration) phrase.Phrase {
	secs := int((left + time.Second - 1) / time.Second)
	if c.Kind == NotPush {
		status := strconv.Itoa(c.Status)
		switch {
		case every > 0:
			return phrase.New("core.plate.not_push_every", "status", status, "n", strconv.Itoa(int(every.Round(time.Second)/time.Second)))
		case secs < 1:
			return phrase.New("core.plate.not_push_now", "status", status)
		}
		return phrase.New("core.plate.not_push_in", "status", status, "n", strconv.Itoa(secs))
	}
	if secs < 1 {
		return phrase.New("core.plate.reconnecting_now")
	}
	return phrase.New("core.plate.reconnecting_in", "n", strconv.Itoa(secs))
}
