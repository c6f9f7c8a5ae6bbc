package frontmost

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"yui/app/clientctx"
)

// Window is one active window as a Source reports it.
type Window struct {
	ID    uint32
	App   string
	Title string
}

// Source is where the active window comes from. System is the real one
// (X11 on Linux, Win32 on Windows).
type Source interface {
	// Active returns the active window; ok false when there is none.
	Active() (w Window, ok bool)
	// Watch calls changed whenever the active window may have changed,
	// until ctx ends; it returns an error when it cannot watch at all.
	Watch(ctx context.Context, changed func()) error
}

// Own reports whether a window is one of Yui's own: every Yui window
// process has WM_CLASS "yui", "Yui" (the shell's program name).
func Own(w Window) bool {
	return strings.EqualFold(w.App, "yui")
}

// Tracker follows the frontmost window. Its methods may be called
// concurrently.
type Tracker struct {
	src Source
	now func() time.Time
	log *slog.Logger

	mu    sync.Mutex
	cur   Window
	since time.Time
	known bool
}

// New returns a Tracker reading src; now is the clock (nil: time.Now).
func New(src Source, now func() time.Time, log *slog.Logger) *Tracker {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Tracker{src: src, now: now, log: log}
}

// Run samples the active window now and on every change until ctx ends.
func (t *Tracker) Run(ctx context.Context) {
	t.sample()
	if err := t.src.Watch(ctx, t.sample); err != nil && ctx.Err() == nil {
		t.log.Info("frontmost_unavailable", "err", err.Error())
	}
}

// sample records the active window when it is another app's window than
// the one recorded; Yui's own windows are skipped.
func (t *Tracker) sample() {
	w, ok := t.src.Active()
	if !ok || Own(w) || w.App == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.known && w.ID == t.cur.ID {
		t.cur = w // same window, maybe a new title
		return
	}
	t.cur, t.since, t.known = w, t.now(), true
}

// Current is the frontmost line's data, or nil when unknown. The title
// is read fresh when that window is still the active one.
func (t *Tracker) Current() *clientctx.Frontmost {
	t.sample()
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.known {
		return nil
	}
	return &clientctx.Frontmost{App: t.cur.App, Title: t.cur.Title, Since: t.since}
}
