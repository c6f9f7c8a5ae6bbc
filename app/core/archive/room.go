package archive

import (
	"log/slog"
	"time"

	"yui/app/core/route"
	"yui/app/history"
	"yui/app/view"
)

// MaxHits is the most rows a search answers.
const MaxHits = 50

// Store is a character's history as the room reads it.
type Store interface {
	// Conv is the current conversation.
	Conv() int64
	// DB is her history database.
	DB() *history.DB
}

// Host is what the room asks of the core.
type Host interface {
	// Store is preset's history; nil when she is not running.
	Store(preset string) Store
	// Name is her name, for an export's title and file name.
	Name(preset string) string
	// ExportDir is the folder exports are written to.
	ExportDir() string
}

// Pages sends to the pages of a role and preset.
type Pages interface {
	Send(role, preset string, m view.Message)
}

// Room answers the message pages' history requests.
type Room struct {
	host  Host
	pages Pages
	log   *slog.Logger
	now   func() time.Time
}

// New makes the room; now may be nil (time.Now).
func New(host Host, pages Pages, log *slog.Logger, now func() time.Time) *Room {
	if now == nil {
		now = time.Now
	}
	return &Room{host: host, pages: pages, log: log, now: now}
}

// Routes registers the history requests, from message pages only.
func (r *Room) Routes(t *route.Table) {
	only := func(h route.Handler) route.Handler {
		return route.Only(r.log, route.Roles(view.RoleMessage), "the message window reads its history", h)
	}
	t.Add(only(route.JSON(r.log, func(p view.Peer, m view.HistoryMore) { r.More(p.Preset, m) })), view.TypeHistoryMore)
	t.Add(only(route.JSON(r.log, func(p view.Peer, m view.HistorySearch) { r.Search(p.Preset, m) })), view.TypeHistorySearch)
	t.Add(only(route.JSON(r.log, func(p view.Peer, m view.HistoryExport) { r.Export(p.Preset, m) })), view.TypeHistoryExport)
}

func (r *Room) store(preset, typ string) Store {
	st := r.host.Store(preset)
	if st == nil {
		r.log.Warn("view_unknown_preset", "preset", preset, "type", typ)
	}
	return st
}

// Entry is a history row as the view protocol sends it.
func Entry(row history.Row) view.TranscriptEntry {
	return view.TranscriptEntry{ID: row.ID, Conv: row.Conv, TurnID: row.TurnID, Kind: row.Kind, Text: row.Text,
		Reasoning: row.Reasoning, State: row.State, At: row.At}
}

// More sends the page of rows before m.Before.
func (r *Room) More(preset string, m view.HistoryMore) {
	st := r.store(preset, view.TypeHistoryMore)
	if st == nil {
		return
	}
	rows, more, err := st.DB().Page(m.Before, history.PageRows)
	if err != nil {
		r.log.Warn("history_page_failed", "preset", preset, "err", err.Error())
	}
	out := view.HistoryPage{Before: m.Before, Entries: make([]view.TranscriptEntry, 0, len(rows)), More: more}
	for _, row := range rows {
		out.Entries = append(out.Entries, Entry(row))
	}
	r.pages.Send(view.RoleMessage, preset, view.MustEncode(view.TypeHistoryPage, out))
}

// Search sends the rows that hold m.Query's words, newest first.
func (r *Room) Search(preset string, m view.HistorySearch) {
	st := r.store(preset, view.TypeHistorySearch)
	if st == nil {
		return
	}
	out := view.HistoryResults{Query: m.Query, Hits: []view.HistoryHit{}}
	hits, err := st.DB().Search(m.Query, MaxHits)
	if err != nil {
		r.log.Warn("history_search_failed", "preset", preset, "err", err.Error())
		out.Error = "The search failed; try other words."
	}
	for _, h := range hits {
		out.Hits = append(out.Hits, view.HistoryHit{Entry: Entry(h.Row), Snippet: h.Snippet})
	}
	if len(out.Query) > history.MaxQueryBytes {
		out.Query = out.Query[:0] // not echoed back whole
	}
	r.pages.Send(view.RoleMessage, preset, view.MustEncode(view.TypeHistoryResults, out))
}
