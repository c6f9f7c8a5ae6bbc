package core

import (
	"context"
	"time"

	"yui/app/clientctx"
	"yui/app/core/companion"
	"yui/app/frontmost"
	"yui/app/presence"
	"yui/app/proactive"
)

// Companion is the companion room: proactive turns and the quiet
// companion switch (what the tray uses).
func (c *Core) Companion() *companion.Room { return c.companion }

// Presence is the OS's word on the user: input idle, typing, a fullscreen
// window (app/presence).
type Presence interface {
	proactive.Input
	Fullscreen() bool
}

// newCompanion builds the companion room on the OS's sources (or the
// options' stand-ins) and the proactive clock (the test-only scale).
func (c *Core) newCompanion() *companion.Room {
	pres := c.opts.Presence
	if pres == nil && !c.opts.NoWindows {
		pres = presence.New("")
	}
	now := proactive.Scaled(c.opts.ProactiveScale)
	cfg := companion.Config{Store: c.store, Pages: c.view, Host: companionHost{c},
		Screen: screenSource{front: c.front, pres: pres, now: now, scale: max(c.opts.ProactiveScale, 1)},
		Now:    now, Scale: c.opts.ProactiveScale, Logger: c.log}
	if pres != nil {
		cfg.Input = pres
	}
	return companion.New(cfg)
}

// runCompanion runs the companion room until ctx ends; without a word from
// the OS on the user (no windows and no Options.Presence: tests, a
// development core) she never speaks first.
func (c *Core) runCompanion(ctx context.Context) {
	if c.opts.Presence == nil && c.opts.NoWindows {
		c.log.Info("proactive_off", "reason", "no_presence")
		return
	}
	c.companion.Run(ctx)
}

// companionHost is what the companion room asks of the core.
type companionHost struct{ c *Core }

func (h companionHost) Characters() []companion.Character {
	c := h.c
	all := c.store.Get()
	var out []companion.Character
	for _, p := range all.Presets {
		if !p.Enabled || c.pet(p.ID) == nil {
			continue
		}
		ch := companion.Character{ID: p.ID, Hidden: c.desk.Hidden(p.ID), Muted: all.Audio.Muted || p.Voice.Muted,
			TellsApp: !p.Permissions.HideFrontmost}
		if p.ID == all.ActivePreset {
			out = append([]companion.Character{ch}, out...)
		} else {
			out = append(out, ch)
		}
	}
	return out
}

func (h companionHost) StartTurn(id string, trigger clientctx.Trigger) {
	if pt := h.c.pet(id); pt != nil {
		pt.sess.StartTurn("", trigger)
	}
}

func (h companionHost) QuietChanged() {
	h.c.sui.PublishState()
	h.c.desk.Changed() // the tray's check
}

// screenSource is the frontmost window (the tracker the context block
// reads) and fullscreen (presence) on the proactive clock.
type screenSource struct {
	front *frontmost.Tracker
	pres  Presence
	now   func() time.Time
	scale float64
}

func (s screenSource) Frontmost() (string, string, time.Time, bool) {
	f := s.front.Current()
	if f == nil {
		return "", "", time.Time{}, false
	}
	// The tracker keeps real time; the engine may run scaled.
	since := s.now().Add(-time.Duration(float64(time.Since(f.Since)) * s.scale))
	return f.App, f.Title, since, true
}

func (s screenSource) Fullscreen() bool { return s.pres != nil && s.pres.Fullscreen() }
