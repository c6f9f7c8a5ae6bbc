package core

import (
	"context"

	"yui/app/core/companion"
	"yui/app/proactive"
)

// Companion is the companion room: proactive turns and the quiet
// companion switch (what the tray uses).
func (c *Core) Companion() *companion.Room { return c.companion }

// newCompanion builds the companion room on the OS's sources (or the
// options' stand-ins) and the proactive clock (the test-only scale).
func (c *Core) newCompanion() *companion.Room {
	pres := c.opts.Presence
	now := proactive.Scaled(c.opts.ProactiveScale)
	host := companion.Cast{Store: c.store, Running: func(id string) bool { return c.pet(id) != nil }, Hidden: c.desk.Hidden,
		Turn: c.startTurn, OnQuiet: func() {
			c.sui.PublishState()
			c.desk.Changed() // the tray's check
		}}
	cfg := companion.Config{Store: c.store, Pages: c.view, Host: host,
		Screen: companion.FrontScreen{Front: c.front, Presence: pres, Now: now, Scale: max(c.opts.ProactiveScale, 1)},
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
	if c.opts.Presence == nil {
		c.log.Info("proactive_off", "reason", "no_presence")
		return
	}
	c.companion.Run(ctx)
}
