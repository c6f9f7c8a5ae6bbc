package gaze

import (
	"context"
	"image"
	"maps"
	"slices"
	"sync"
	"time"

	"yui/app/view"
)

// DefaultInterval bounds the reports to 30 a second.
const DefaultInterval = time.Second / 30

// DefaultReach is how far outside her window (pixels) the pointer still
// counts as near her.
const DefaultReach = 400

// Config is what a Follower needs. Watch, Pointer, Window and Send are
// required.
type Config struct {
	// Watch calls moved each time the pointer moves, until ctx ends
	// (x11.WatchPointerMotion).
	Watch func(ctx context.Context, moved func()) error
	// Pointer is where the pointer is on the screen.
	Pointer func() (x, y int, err error)
	// Window is her window on the screen; ok false while she is hidden.
	Window func() (r image.Rectangle, ok bool)
	// Send delivers one message to her page; it must not block or call
	// back into the Follower.
	Send func(view.Pointer)
	// Interval is the least time between two reports (DefaultInterval
	// when 0); Reach is DefaultReach when 0.
	Interval time.Duration
	Reach    int
}

// Follower turns pointer motion into view.Pointer messages. Its methods
// are safe for concurrent use.
type Follower struct {
	cfg Config

	mu    sync.Mutex
	last  time.Time   // when the last report was made
	timer *time.Timer // the pending trailing report, nil when none
	sent  view.Pointer
	near  bool
}

// New returns a Follower for cfg.
func New(cfg Config) *Follower {
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Reach <= 0 {
		cfg.Reach = DefaultReach
	}
	return &Follower{cfg: cfg}
}

// Run watches the pointer until ctx ends or the watch fails, and says
// the pointer went away (if it was near) when it stops. The caller runs
// it only while she is visible and wears a look that follows the pointer.
func (f *Follower) Run(ctx context.Context) error {
	err := f.cfg.Watch(ctx, f.Moved)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.timer != nil {
		f.timer.Stop()
		f.timer = nil
	}
	f.leaveLocked()
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// Moved says the pointer moved: it reports now when the last report is
// at least Interval old, else once when Interval has passed.
func (f *Follower) Moved() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.timer != nil {
		return // the trailing report will read the newest position
	}
	wait := f.cfg.Interval - time.Since(f.last)
	if f.last.IsZero() || wait <= 0 {
		f.reportLocked()
		return
	}
	f.timer = time.AfterFunc(wait, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.timer == nil {
			return // Run ended
		}
		f.timer = nil
		f.reportLocked()
	})
}

func (f *Follower) reportLocked() {
	f.last = time.Now()
	x, y, err := f.cfg.Pointer()
	r, ok := f.cfg.Window()
	if err != nil || !ok || !within(image.Pt(x, y), r, f.cfg.Reach) {
		f.leaveLocked()
		return
	}
	p := view.Pointer{X: x - r.Min.X, Y: y - r.Min.Y, Near: true}
	if f.near && p == f.sent {
		return
	}
	f.near, f.sent = true, p
	f.cfg.Send(p)
}

func (f *Follower) leaveLocked() {
	if !f.near {
		return
	}
	f.near, f.sent = false, view.Pointer{}
	f.cfg.Send(view.Pointer{})
}

// within says p lies within reach pixels of r (inside counts).
func within(p image.Point, r image.Rectangle, reach int) bool {
	return p.In(image.Rectangle{Min: r.Min.Sub(image.Pt(reach, reach)), Max: r.Max.Add(image.Pt(reach, reach))})
}

// Target is one character whose page follows the pointer: Window and
// Send as in Config.
type Target struct {
	Window func() (image.Rectangle, bool)
	Send   func(view.Pointer)
}

// Keeper runs one Follower per character that should follow the pointer
// and none when no character should, so the pointer is watched only
// while one is visible and wears a look that follows it. Its methods are
// safe for concurrent use.
type Keeper struct {
	src      Source
	interval time.Duration
	reach    int
	onErr    func(id string, err error)

	mu      sync.Mutex
	ctx     context.Context
	running map[string]context.CancelFunc
}

// NewKeeper returns a Keeper that watches src while ctx lasts; onErr (may
// be nil) hears a watch that failed (that character then stops following
// the pointer until Set starts her again). interval and reach as in
// Config.
func NewKeeper(ctx context.Context, src Source, interval time.Duration, reach int, onErr func(id string, err error)) *Keeper {
	return &Keeper{src: src, interval: interval, reach: reach, onErr: onErr, ctx: ctx, running: map[string]context.CancelFunc{}}
}

// Set makes the characters that follow the pointer exactly targets'
// keys: it starts a Follower for each new one and stops the others
// (each stopped page hears Near=false if the pointer was near).
// Targets already running keep their Follower.
func (k *Keeper) Set(targets map[string]Target) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for id, stop := range k.running {
		if _, ok := targets[id]; !ok {
			stop()
			delete(k.running, id)
		}
	}
	for id, t := range targets {
		if _, ok := k.running[id]; ok || k.ctx.Err() != nil {
			continue
		}
		ctx, stop := context.WithCancel(k.ctx)
		k.running[id] = stop
		f := New(Config{Watch: k.src.Watch, Pointer: k.src.Position, Window: t.Window, Send: t.Send, Interval: k.interval, Reach: k.reach})
		go func() {
			err := f.Run(ctx)
			k.mu.Lock()
			if ctx.Err() == nil { // it failed: forget it
				delete(k.running, id)
			}
			k.mu.Unlock()
			stop()
			if err != nil && k.onErr != nil {
				k.onErr(id, err)
			}
		}()
	}
}

// Running are the characters followed now.
func (k *Keeper) Running() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return slices.Sorted(maps.Keys(k.running))
}
