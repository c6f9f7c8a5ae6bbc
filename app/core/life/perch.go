package life

import (
	"context"
	"errors"
	"image"
	"strings"
	"sync"

	"yui/app/body"
	"yui/app/bodyaction"
	"yui/app/capture"
	"yui/app/look"
	"yui/app/perch"
)

// watch is the window she sits on, or walks to: the Desktop's watch on
// it keeps frame current; once she arrived, each change moves her with
// it, and the window going lands her.
type watch struct {
	c    *char
	win  look.Window
	ms   []capture.Monitor
	task *task

	mu      sync.Mutex
	frame   image.Rectangle
	lost    string // the answer once the window went: not_found or blocked
	arrived bool
	dx      int // her window's left edge from the frame's
}

// frameOf is the window as the user sees it.
func frameOf(w look.Window) image.Rectangle {
	if !w.Frame.Empty() {
		return w.Frame
	}
	return w.Rect
}

// find is the topmost window she may sit on whose app (as perch targets
// name it) is app, case-insensitively; one that shows on a monitor first.
func (r *Room) find(ws []look.Window, app string, ms []capture.Monitor) (look.Window, bool) {
	var off *look.Window
	for i := len(ws) - 1; i >= 0; i-- {
		w := ws[i]
		if !look.Perchable(w, r.cfg.OwnPIDs, "") || !strings.EqualFold(look.AppName(w), strings.TrimSpace(app)) {
			continue
		}
		if len(ms) > 0 && capture.Containing(ms, frameOf(w)) < 0 {
			if off == nil {
				off = &ws[i]
			}
			continue
		}
		return w, true
	}
	if off != nil {
		return *off, true // off every monitor: blocked
	}
	return look.Window{}, false
}

// seatable reports whether she can sit on frame f: its top edge on a
// monitor, with room above it for her body.
func seatable(f image.Rectangle, dx int, ms []capture.Monitor) bool {
	if len(ms) == 0 {
		return true
	}
	at := perchAt(f, dx)
	seat := feetAt(at)
	for _, m := range ms {
		if seat.In(m.Bounds) || (seat.X >= m.Bounds.Min.X && seat.X < m.Bounds.Max.X && seat.Y == m.Bounds.Max.Y) {
			return bodyAt(at).Min.Y >= m.Bounds.Min.Y
		}
	}
	return false
}

// sit walks her to app's window and sits her on its top edge.
func (c *char) sit(ctx context.Context, app string, ms []capture.Monitor) string {
	ws, err := c.room.cfg.Desktop.Windows()
	if err != nil {
		c.log.Warn("body_windows_unavailable", "err", err.Error())
		return bodyaction.NotFound
	}
	w, ok := c.room.find(ws, app, ms)
	if !ok {
		return bodyaction.NotFound
	}
	f := frameOf(w)
	dx := perchDX(f)
	if w.Fullscreen || !seatable(f, dx, ms) {
		return bodyaction.Blocked
	}
	pw := c.startWatch(w, f, ms, false, dx)
	err = c.walk(ctx, func() (image.Point, error) {
		pw.mu.Lock()
		defer pw.mu.Unlock()
		if pw.lost != "" {
			return image.Point{}, lostError{pw.lost}
		}
		return perchAt(pw.frame, pw.dx), nil
	}, ms, body.Walking, 0)
	var lost lostError
	switch {
	case errors.As(err, &lost):
		c.stopFollow(errLanded)
		c.land(ctx, ms, lost.answer)
		return lost.answer
	case err != nil:
		c.stopFollow(context.Cause(ctx))
		return c.interrupted()
	}
	pw.arrive()
	return bodyaction.OK
}

// startWatch starts the watch on w (replacing any), arrived already when
// she is put there (a drop).
func (c *char) startWatch(w look.Window, f image.Rectangle, ms []capture.Monitor, arrived bool, dx int) *watch {
	ctx, cancel := context.WithCancelCause(context.Background())
	pw := &watch{c: c, win: w, ms: ms, frame: f, arrived: arrived, dx: dx,
		task: &task{cancel: cancel, done: make(chan struct{})}}
	c.mu.Lock()
	prev := c.follow
	c.follow = pw
	c.mu.Unlock()
	if prev != nil {
		prev.task.stop(errReplaced)
	}
	if arrived {
		pw.sat("drop")
	}
	go func() {
		defer close(pw.task.done)
		err := c.room.cfg.Desktop.Watch(ctx, w.ID, func(ch perch.Change) { pw.changed(ctx, ch) })
		if err != nil && ctx.Err() == nil {
			c.log.Warn("body_watch_failed", "app", w.App, "err", err.Error())
		}
		c.mu.Lock()
		if c.follow == pw {
			c.follow = nil
		}
		c.mu.Unlock()
	}()
	return pw
}

// arrive sits her on the window once the walk got there, at its latest
// place.
func (pw *watch) arrive() {
	pw.mu.Lock()
	pw.arrived = true
	at := perchAt(pw.frame, pw.dx)
	pw.mu.Unlock()
	if pw.c.body.State().At != at {
		pw.c.step(at, pw.ms, "")
		pw.c.settle(at)
	}
	pw.sat("walk")
}

// sat records her sitting on the window.
func (pw *watch) sat(how string) {
	w := pw.win
	pw.c.body.Update(func(s *body.State) {
		s.Posture, s.Moving, s.Side, s.Facing = body.Sitting, false, "", ""
		s.Perch = &body.Perch{ID: w.ID, App: look.AppName(w), Title: w.Title}
	})
	pw.c.log.Info("body_perched", "app", look.AppName(w), "how", how)
}

// changed is one change of the window (on the watch's goroutine).
func (pw *watch) changed(ctx context.Context, ch perch.Change) {
	lost := ""
	switch {
	case ch.Gone, ch.Hidden:
		lost = bodyaction.NotFound
	case ch.Fullscreen:
		lost = bodyaction.Blocked
	}
	pw.mu.Lock()
	if !ch.Gone {
		pw.frame = ch.Frame
	}
	arrived, f, dx := pw.arrived, pw.frame, pw.dx
	pw.mu.Unlock()
	if lost == "" && (ch.Restacked || !arrived) && !ch.Frame.Empty() && pw.covered(f, dx) {
		lost = bodyaction.Blocked
	}
	if lost == "" && arrived && !seatable(f, dx, pw.ms) {
		lost = bodyaction.Blocked
	}
	if lost != "" {
		pw.mu.Lock()
		pw.lost = lost
		pw.mu.Unlock()
	}
	if !arrived {
		return // the walk reads the frame and the loss at its next step
	}
	if lost != "" {
		pw.c.log.Info("body_perch_lost", "app", pw.win.App, "gone", ch.Gone, "hidden", ch.Hidden, "fullscreen", ch.Fullscreen)
		pw.c.land(ctx, pw.ms, lost)
		pw.task.cancel(errLanded)
		return
	}
	at := perchAt(f, dx)
	if at != pw.c.body.State().At {
		pw.c.step(at, pw.ms, "")
	}
}

// covered reports whether another window (not one of Yui's) now covers
// the spot she sits on.
func (pw *watch) covered(f image.Rectangle, dx int) bool {
	ws, err := pw.c.room.cfg.Desktop.Windows()
	if err != nil {
		return false
	}
	seat := image.Pt(feetAt(perchAt(f, dx)).X, f.Min.Y+2)
	above := false
	for _, w := range ws {
		if w.ID == pw.win.ID {
			above = true
			continue
		}
		if above && !w.Hidden && look.Perchable(w, pw.c.room.cfg.OwnPIDs, "") && seat.In(frameOf(w)) {
			return true
		}
	}
	return false
}

// land stands her on the screen's bottom edge below where she is: her
// window went, was minimised, went fullscreen or was covered.
func (c *char) land(ctx context.Context, ms []capture.Monitor, why string) {
	st := c.body.State()
	c.body.Update(func(s *body.State) { s.Perch, s.Posture = nil, body.Standing })
	m, ok := monitorAt(ms, feetAt(st.At), st.At)
	if !ok {
		c.body.Update(func(s *body.State) { s.Moving = false })
		return
	}
	to := ground(m, st.At.X)
	if err := c.walk(ctx, fixed(to), ms, body.Standing, FallSpeed); err != nil {
		c.interrupted()
		return
	}
	c.body.Update(func(s *body.State) { s.Posture, s.Moving, s.Facing = body.Standing, false, "" })
	c.log.Info("body_landed", "why", why, "x", to.X, "y", to.Y)
}

// dragStart: the user took hold of her. Her action is interrupted and she
// leaves her perch.
func (c *char) dragStart() {
	c.mu.Lock()
	c.held = true
	j := c.job
	c.mu.Unlock()
	j.stop(errDragged)
	c.stopFollow(errDragged)
	c.body.Update(func(s *body.State) {
		s.Posture, s.Moving, s.Perch, s.Side, s.Facing = body.Dragging, true, nil, "", ""
	})
}

// dragEnd: the user let go with her window at at. Her feet within
// SnapDistance of a window's top edge perch her there; else she stands.
func (c *char) dragEnd(at image.Point) {
	c.mu.Lock()
	c.held = false
	c.mu.Unlock()
	ms := c.room.monitors()
	if w, f, ok := c.snap(at, ms); ok {
		dx := at.X - f.Min.X
		to := perchAt(f, dx)
		c.body.Update(func(s *body.State) { s.At, s.Monitor = to, monitorOf(ms, to) })
		if to != at {
			c.settle(to)
		}
		c.startWatch(w, f, ms, true, dx)
		return
	}
	c.body.Update(func(s *body.State) {
		s.At, s.Monitor, s.Posture, s.Moving = at, monitorOf(ms, at), body.Standing, false
	})
}

// snap finds the topmost window whose top edge her feet are within
// SnapDistance of, at its spot not covered by another window.
func (c *char) snap(at image.Point, ms []capture.Monitor) (look.Window, image.Rectangle, bool) {
	if c.room.cfg.Desktop == nil {
		return look.Window{}, image.Rectangle{}, false
	}
	ws, err := c.room.cfg.Desktop.Windows()
	if err != nil {
		return look.Window{}, image.Rectangle{}, false
	}
	p := feetAt(at)
	for i := len(ws) - 1; i >= 0; i-- {
		w := ws[i]
		f := frameOf(w)
		if !look.Perchable(w, c.room.cfg.OwnPIDs, "") || w.Fullscreen {
			continue
		}
		if p.X < f.Min.X || p.X >= f.Max.X {
			continue
		}
		if d := p.Y - f.Min.Y; d >= -SnapDistance && d <= SnapDistance {
			return w, f, true
		}
		if p.In(f) {
			return look.Window{}, image.Rectangle{}, false // dropped onto a window's face: it covers any below
		}
	}
	return look.Window{}, image.Rectangle{}, false
}
