package delegation

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of the push spec.
const (
	MaxItems       = 50
	MaxTitle       = 120
	MaxSummary     = 2000
	MaxHistory     = 200
	DoneVisibleFor = 30 * time.Minute
)

// Item states and statuses.
const (
	Running = "running"
	Done    = "done"

	StatusOK      = "ok"
	StatusError   = "error"
	StatusUnknown = "unknown"
)

// Item is one delegation as the delegations frame carries it.
type Item struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	StartedAt int64  `json:"started_at"`
	State     string `json:"state"`
	EndedAt   int64  `json:"ended_at,omitempty"`
	Status    string `json:"status,omitempty"`
	Summary   string `json:"summary,omitempty"`
}

// Clean applies the package's defensive rules to a frame list.
func Clean(items []Item) []Item {
	out := make([]Item, 0, min(len(items), MaxItems))
	seen := map[string]bool{}
	for _, it := range items {
		if len(out) == MaxItems {
			break
		}
		if it.ID == "" || seen[it.ID] || (it.State != Running && it.State != Done) {
			continue
		}
		seen[it.ID] = true
		it.Title = cutRunes(strings.ToValidUTF8(it.Title, "\uFFFD"), MaxTitle)
		it.Summary = cutRunes(strings.ToValidUTF8(it.Summary, "\uFFFD"), MaxSummary)
		if it.State == Running {
			it.EndedAt, it.Status, it.Summary = 0, "", ""
		} else if it.Status == "" {
			it.Status = StatusUnknown
		}
		out = append(out, it)
	}
	return out
}

// cutRunes keeps the first n code points of s.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range n {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return s[:i]
}

// visibleUntil is when a done item leaves the chip.
func (it Item) visibleUntil() time.Time {
	return time.UnixMilli(it.EndedAt).Add(DoneVisibleFor)
}
