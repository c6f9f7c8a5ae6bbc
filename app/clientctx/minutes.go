package clientctx

import (
	"strconv"
	"time"
)

// Minutes is max(0, round((now-since)/60000 ms)), halves rounding up.
func Minutes(now, since time.Time) int64 {
	ms := now.Sub(since).Milliseconds()
	if ms <= 0 {
		return 0
	}
	return (ms + 30_000) / 60_000
}

// minutesText renders Minutes as "Nmin".
func minutesText(now, since time.Time) string {
	return strconv.FormatInt(Minutes(now, since), 10) + "min"
}
