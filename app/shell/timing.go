package shell

import (
	"log/slog"
	"sync"
	"time"
)

// Start-up steps a window reports (issue 24: a window connects as soon as
// its process starts, and the log says where its start-up time goes). Each
// is logged once as a "window_timing" line with the milliseconds since the
// window process started:
const (
	StepCoreDialed   = "core_dialed"   // the shell's socket to the core is up and the window config read
	StepWebKit       = "webkit"        // Wails has made the window and its web view (OnStartup)
	StepMapped       = "mapped"        // the window is mapped on the screen (GTK map-event)
	StepPageLoaded   = "page_loaded"   // the page's DOM is ready (OnDomReady)
	StepViewSocket   = "view_socket"   // the page's view socket to the core is open (the page says)
	StepFirstState   = "first_state"   // the page has applied the core's first sticky state (the page says)
	StepBareShown    = "bare_shown"    // a bare window's page has loaded (the bench baseline, RunBare)
	timingEventName  = "window_timing" // the log line's event
	maxPageStepAhead = time.Minute     // a page's step stamped further from now is not believed
)

// pageSteps are the steps the page may report through the Bridge.
var pageSteps = map[string]bool{StepViewSocket: true, StepFirstState: true}

// startTimer logs each start-up step once, as time since the process
// started. Safe for concurrent use.
type startTimer struct {
	log   *slog.Logger
	start time.Time

	mu   sync.Mutex
	seen map[string]bool
}

func newStartTimer(lg *slog.Logger, start time.Time) *startTimer {
	if start.IsZero() {
		start = time.Now()
	}
	return &startTimer{log: lg, start: start, seen: make(map[string]bool)}
}

// step logs step at time at, unless it was logged already.
func (t *startTimer) step(step string, at time.Time) {
	if t == nil {
		return
	}
	t.mu.Lock()
	first := !t.seen[step]
	t.seen[step] = true
	t.mu.Unlock()
	if first {
		t.log.Info(timingEventName, "step", step, "ms", at.Sub(t.start).Milliseconds())
	}
}

// now logs step as happening now.
func (t *startTimer) now(step string) { t.step(step, time.Now()) }

// page logs a step the page reports, stamped with the page's clock (epoch
// milliseconds): only the page's own steps, and only a plausible stamp.
func (t *startTimer) page(step string, epochMs float64) {
	if !pageSteps[step] {
		return
	}
	at := time.UnixMilli(int64(epochMs))
	if d := time.Since(at); d > maxPageStepAhead || d < -maxPageStepAhead {
		at = time.Now()
	}
	t.step(step, at)
}
