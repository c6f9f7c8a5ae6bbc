package life

import (
	"context"
	"errors"
	"image"
	"log/slog"
	"math"
	"sync"
	"time"

	"yui/app/body"
	"yui/app/bodyaction"
	"yui/app/capture"
	"yui/app/view"
)

// The pace of her moves. A walk's steps are StepEvery apart; she walks at
// WalkSpeed, and hops at HopSpeed when the way is longer than
// HopDistance (across a monitor, to another one), so no move takes more
// than a few seconds of the action's 15 s wait.
const (
	StepEvery   = time.Second / 30
	WalkSpeed   = 360.0  // pixels per second
	HopSpeed    = 1200.0 // pixels per second
	HopDistance = 900.0  // pixels
	FallSpeed   = 1000.0 // pixels per second, landing when her perch goes
)

// Why an action or a perch stopped.
var (
	errReplaced = errors.New("replaced by a newer action")
	errDragged  = errors.New("the user dragged her")
	errRemoved  = errors.New("the character was removed")
	errLanded   = errors.New("her perch went away")
)

// lostError is a walk's end because the window she walked to went
// (answer: not_found) or cannot be sat on any more (blocked).
type lostError struct{ answer string }

func (e lostError) Error() string { return "the window was lost: " + e.answer }

// task is a running action or perch watch.
type task struct {
	cancel context.CancelCauseFunc
	done   chan struct{}
}

// stop cancels t and waits for it to end; nil is a no-op. Never from t's
// own goroutine.
func (t *task) stop(cause error) {
	if t == nil {
		return
	}
	t.cancel(cause)
	<-t.done
}

// char is one character's body and runner.
type char struct {
	id   string
	room *Room
	log  *slog.Logger
	body *body.Body

	mu     sync.Mutex
	job    *task  // the action running
	follow *watch // the perch she is on (or walks to)
	held   bool   // the user is dragging her

	pubMu sync.Mutex
	shown *view.Body // the body topic last published
}

// Act runs one action (bodyaction.Actor).
func (c *char) Act(ctx context.Context, a bodyaction.Action) string {
	start := time.Now()
	c.mu.Lock()
	if c.held {
		c.mu.Unlock()
		c.logAction(a, bodyaction.Busy, start)
		return bodyaction.Busy
	}
	prev := c.job
	jctx, cancel := context.WithCancelCause(ctx)
	t := &task{cancel: cancel, done: make(chan struct{})}
	c.job = t
	c.mu.Unlock()
	prev.stop(errReplaced)
	defer func() {
		cancel(nil)
		c.mu.Lock()
		if c.job == t {
			c.job = nil
		}
		c.mu.Unlock()
		close(t.done)
	}()
	ans := bodyaction.Interrupted
	if jctx.Err() == nil {
		ans = c.run(jctx, a)
	}
	c.logAction(a, ans, start)
	return ans
}

func (c *char) logAction(a bodyaction.Action, ans string, start time.Time) {
	st := c.body.State()
	c.log.Info("body_action", "action", string(a.Kind), "app", a.App, "side", a.Side, "spot", a.Spot,
		"answer", ans, "ms", time.Since(start).Milliseconds(), "posture", string(st.Posture), "x", st.At.X, "y", st.At.Y)
}

// run performs a; jctx ends when a newer action, a drag, the client's
// wait or a stopped turn interrupts it.
func (c *char) run(ctx context.Context, a bodyaction.Action) string {
	ms := c.room.monitors()
	switch a.Kind {
	case bodyaction.SitOnWindow:
		return c.sit(ctx, a.App, ms)
	case bodyaction.GoToBed:
		c.body.Update(func(s *body.State) { s.Posture, s.Moving = body.Sleeping, false })
		return bodyaction.OK
	case bodyaction.Stand:
		return c.stand(ctx, ms)
	}
	st := c.body.State()
	var to image.Point
	posture, side := body.Standing, ""
	if a.Kind == bodyaction.Peek {
		m, ok := monitorAt(ms, feetAt(st.At), st.At)
		if !ok {
			return bodyaction.Blocked
		}
		to, posture, side = peek(m, a.Side, st.At), body.Peeking, a.Side
	} else { // move_to
		n := st.Monitor
		if a.Monitor != nil {
			n = *a.Monitor
		}
		m, ok := capture.Find(ms, n)
		if !ok {
			if a.Monitor != nil {
				return bodyaction.NoMonitor
			}
			return bodyaction.Blocked
		}
		to = spot(m, a.Spot)
	}
	c.stopFollow(errReplaced)
	if err := c.walk(ctx, fixed(to), ms, body.Walking, 0); err != nil {
		return c.interrupted()
	}
	c.body.Update(func(s *body.State) { s.Posture, s.Side, s.Moving, s.Facing = posture, side, false, "" })
	return bodyaction.OK
}

// interrupted stands her where the interrupted move stopped her (unless
// the user holds her) and answers interrupted.
func (c *char) interrupted() string {
	c.mu.Lock()
	held := c.held
	c.mu.Unlock()
	if !held {
		c.body.Update(func(s *body.State) {
			if s.Posture == body.Walking {
				s.Posture = body.Standing
			}
			s.Moving, s.Facing = false, ""
		})
	}
	return bodyaction.Interrupted
}

// stand puts her on her feet where she is: out of a peek (fully on the
// monitor), out of bed, up from sitting (still on her window).
func (c *char) stand(ctx context.Context, ms []capture.Monitor) string {
	st := c.body.State()
	if st.Posture == body.Peeking {
		if m, ok := monitorAt(ms, feetAt(st.At), st.At); ok {
			to := image.Pt(clampX(st.At.X, m.Bounds), st.At.Y)
			if err := c.walk(ctx, fixed(to), ms, body.Walking, 0); err != nil {
				return c.interrupted()
			}
		}
	}
	c.body.Update(func(s *body.State) { s.Posture, s.Side, s.Moving, s.Facing = body.Standing, "", false, "" })
	return bodyaction.OK
}

// wake gets her out of bed: back on her window, or on her feet.
func (c *char) wake(why string) {
	woke := false
	c.body.Update(func(s *body.State) {
		if s.Posture != body.Sleeping {
			return
		}
		woke = true
		s.Posture = body.Standing
		if s.Perch != nil {
			s.Posture = body.Sitting
		}
	})
	if woke {
		c.log.Info("body_woke", "by", why)
	}
}

func fixed(p image.Point) func() (image.Point, error) {
	return func() (image.Point, error) { return p, nil }
}

// walk moves her window step by step to target (read at every step: a
// window she walks to may move) in posture, at speed (0: walking pace, a
// hop when far), then settles the place. It returns ctx's cause when
// interrupted (she stays where she got to), or target's error.
func (c *char) walk(ctx context.Context, target func() (image.Point, error), ms []capture.Monitor, posture body.Posture, speed float64) error {
	st := c.body.State()
	x, y := float64(st.At.X), float64(st.At.Y)
	to, err := target()
	if err != nil {
		return err
	}
	if speed == 0 {
		speed = WalkSpeed
		if math.Hypot(float64(to.X)-x, float64(to.Y)-y) > HopDistance {
			speed = HopSpeed
		}
	}
	c.body.Update(func(s *body.State) { s.Posture, s.Moving, s.Perch, s.Side = posture, true, nil, "" })
	tick := time.NewTicker(StepEvery)
	defer tick.Stop()
	last := time.Now()
	at := st.At
	for at != to {
		select {
		case <-ctx.Done():
			c.settle(at)
			return context.Cause(ctx)
		case now := <-tick.C:
			dt := now.Sub(last).Seconds()
			last = now
			if to, err = target(); err != nil {
				c.settle(at)
				return err
			}
			dx, dy := float64(to.X)-x, float64(to.Y)-y
			d := math.Hypot(dx, dy)
			if step := speed * dt; step >= d {
				x, y = float64(to.X), float64(to.Y)
			} else {
				x, y = x+dx*step/d, y+dy*step/d
			}
			next := image.Pt(int(math.Round(x)), int(math.Round(y)))
			facing := "right"
			if to.X < at.X {
				facing = "left"
			}
			at = next
			c.step(at, ms, facing)
		}
	}
	c.settle(at)
	return nil
}

// step moves her window at once (no save) and records it.
func (c *char) step(at image.Point, ms []capture.Monitor, facing string) {
	c.room.cfg.Pages.Send(view.RoleShell, c.id, view.MustEncode(view.TypeWindowStep, view.WindowPosition{X: at.X, Y: at.Y}))
	c.body.Update(func(s *body.State) {
		s.At, s.Monitor = at, monitorOf(ms, at)
		if facing != "" {
			s.Facing = facing
		}
	})
}

// settle moves her window to at as a place (the shell reports it back and
// the desktop room saves it).
func (c *char) settle(at image.Point) {
	c.room.cfg.Pages.Send(view.RoleShell, c.id, view.MustEncode(view.TypeWindowMove, view.WindowPosition{X: at.X, Y: at.Y}))
}

// stopFollow ends her perch watch, if any.
func (c *char) stopFollow(cause error) {
	c.mu.Lock()
	w := c.follow
	c.follow = nil
	c.mu.Unlock()
	if w != nil {
		w.task.stop(cause)
	}
}

// stopAll ends her action and her perch.
func (c *char) stopAll(cause error) {
	c.mu.Lock()
	j := c.job
	c.mu.Unlock()
	j.stop(cause)
	c.stopFollow(cause)
}

// published tells her page her pose when it changed (body.Body's
// OnChange).
func (c *char) published(st body.State) { c.publish(st, false) }

func (c *char) publish(st body.State, always bool) {
	b := view.Body{Posture: string(st.Posture), Side: st.Side, Perched: st.Perch != nil}
	if st.Moving && st.Posture == body.Walking {
		b.Facing = st.Facing
	}
	c.pubMu.Lock()
	defer c.pubMu.Unlock()
	if !always && c.shown != nil && *c.shown == b {
		return
	}
	c.shown = &b
	c.room.cfg.Pages.Publish(c.id, view.TypeBody, view.MustEncode(view.TypeBody, b))
}
