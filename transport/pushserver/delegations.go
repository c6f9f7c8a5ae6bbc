package pushserver

import (
	"sort"
	"strings"

	"yui/transport/push"
)

// CutCodePoints returns s cut to at most n Unicode code points.
func CutCodePoints(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// CutDelegation applies the limits table to one item: the title is the
// first line of the task, cut to 120 code points, and the summary is cut to
// 2,000 code points.
func CutDelegation(d push.Delegation) push.Delegation {
	title, _, _ := strings.Cut(d.Title, "\n")
	d.Title = CutCodePoints(strings.TrimRight(title, "\r"), push.MaxDelegationTitle)
	d.Summary = CutCodePoints(d.Summary, push.MaxDelegationSummary)
	return d
}

// CutDelegations cuts every item and keeps at most 50: running items first,
// then the done items that ended most recently; kept items keep their order.
func CutDelegations(items []push.Delegation) []push.Delegation {
	out := make([]push.Delegation, 0, min(len(items), push.MaxDelegationItems))
	if len(items) <= push.MaxDelegationItems {
		for _, d := range items {
			out = append(out, CutDelegation(d))
		}
		return out
	}
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		da, db := items[idx[a]], items[idx[b]]
		ra, rb := da.State == "running", db.State == "running"
		if ra != rb {
			return ra
		}
		return da.EndedAt > db.EndedAt
	})
	keep := make([]bool, len(items))
	for _, i := range idx[:push.MaxDelegationItems] {
		keep[i] = true
	}
	for i, d := range items {
		if keep[i] {
			out = append(out, CutDelegation(d))
		}
	}
	return out
}
