package applog

import (
	"context"
	"log/slog"
	"sort"
	"sync"
	"time"
)

// Folding bounds what one event may write (issue 23: 100,000 thread-status
// flips from a runtime wrote 35 MB of lines and pushed every earlier line
// out of the rotated log). Each event name may write FoldBurst lines in a
// FoldWindow; its further lines in that window are counted, not written,
// and once the window is over one log_folded line says how many of which
// event were left out (written before the next line of any event, or by
// Flush). A repeat is told by its event name alone: the lines a flood
// writes differ in their ids.
const (
	FoldWindow = time.Minute
	FoldBurst  = 300
)

// EventFolded is the line that reports folded lines: of (the event),
// lines (how many were left out) and window_s.
const EventFolded = "log_folded"

// foldState is shared by every handler derived from one logger.
type foldState struct {
	mu     sync.Mutex
	now    func() time.Time
	burst  int
	start  time.Time      // the window's start
	counts map[string]int // lines of each event in the window
	folded map[string]int // of those, not written
}

// fold is a slog.Handler that writes through inner within the burst.
type fold struct {
	inner slog.Handler
	st    *foldState
}

func newFold(inner slog.Handler, now func() time.Time) *fold {
	if now == nil {
		now = time.Now
	}
	return &fold{inner: inner, st: &foldState{now: now, burst: FoldBurst, counts: map[string]int{}, folded: map[string]int{}}}
}

func (h *fold) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

func (h *fold) WithAttrs(as []slog.Attr) slog.Handler {
	return &fold{inner: h.inner.WithAttrs(as), st: h.st}
}

func (h *fold) WithGroup(name string) slog.Handler {
	return &fold{inner: h.inner.WithGroup(name), st: h.st}
}

func (h *fold) Handle(ctx context.Context, r slog.Record) error {
	st := h.st
	st.mu.Lock()
	now := st.now()
	var report []slog.Record
	if now.Sub(st.start) >= FoldWindow || now.Before(st.start) {
		report = st.rollLocked(now)
	}
	st.counts[r.Message]++
	write := st.counts[r.Message] <= st.burst
	if !write {
		st.folded[r.Message]++
	}
	st.mu.Unlock()
	for _, fr := range report {
		h.inner.Handle(ctx, fr)
	}
	if !write {
		return nil
	}
	return h.inner.Handle(ctx, r)
}

// rollLocked starts a new window at now and returns the log_folded lines
// of the one that ended.
func (st *foldState) rollLocked(now time.Time) []slog.Record {
	var out []slog.Record
	names := make([]string, 0, len(st.folded))
	for n := range st.folded {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		r := slog.NewRecord(now, slog.LevelWarn, EventFolded, 0)
		r.AddAttrs(slog.String("of", n), slog.Int("lines", st.folded[n]), slog.Int("window_s", int(FoldWindow/time.Second)))
		out = append(out, r)
	}
	st.start = now
	clear(st.counts)
	clear(st.folded)
	return out
}

// flush writes the log_folded lines of the window going now (at exit).
func (h *fold) flush() {
	st := h.st
	st.mu.Lock()
	var report []slog.Record
	if len(st.folded) > 0 {
		report = st.rollLocked(st.now())
	}
	st.mu.Unlock()
	for _, fr := range report {
		h.inner.Handle(context.Background(), fr)
	}
}

// Flush writes what lg folded in the window going now: call it before the
// log's file is closed. A logger not made by New is left as it is.
func Flush(lg *slog.Logger) {
	if lg == nil {
		return
	}
	if f, ok := lg.Handler().(*fold); ok {
		f.flush()
	}
}
