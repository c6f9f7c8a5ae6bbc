package delegation

import (
	"log/slog"

	"yui/app/view"
)

// ViewItems converts delegation items for the view protocol.
func ViewItems(in []Item) []view.DelegationItem {
	out := make([]view.DelegationItem, len(in))
	for i, it := range in {
		out[i] = view.DelegationItem{ID: it.ID, Title: it.Title, StartedAt: it.StartedAt, State: it.State,
			EndedAt: it.EndedAt, Status: it.Status, Summary: it.Summary}
	}
	return out
}

// Stored reads preset's history from dir for the view protocol (a
// switched-off preset has no session to report it); a database that
// cannot be opened is logged and lists nothing.
func Stored(dir, preset string, lg *slog.Logger) []view.DelegationItem {
	hist, err := OpenHistory(dir, preset, lg)
	if err != nil {
		lg.Warn("delegations.history_open_failed", "preset", preset, "err", err.Error())
	}
	defer hist.Close()
	return ViewItems(hist.Items())
}
