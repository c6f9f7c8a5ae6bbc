package core

import (
	"context"

	"yui/app/core/gaze"
)

// startGaze starts the pointer follower for Run's lifetime (ctx).
func (c *Core) startGaze(ctx context.Context) {
	src := c.opts.Pointer
	if src == nil && !c.opts.NoWindows {
		src = gaze.System()
	}
	if src == nil {
		return
	}
	k := gaze.NewKeeper(ctx, src, 0, 0, func(id string, err error) {
		c.log.Warn("pointer_watch_failed", "preset", id, "err", err.Error())
	})
	c.gazeMu.Lock()
	c.gaze = k
	c.gazeMu.Unlock()
	c.updateGaze()
}

// updateGaze makes the characters that follow the pointer those of
// gaze.Cast; with none, nothing watches the pointer.
func (c *Core) updateGaze() {
	c.gazeMu.Lock()
	k := c.gaze
	c.gazeMu.Unlock()
	if k == nil {
		return
	}
	k.Set(gaze.Cast{Store: c.store, Running: func(id string) bool { return c.pet(id) != nil }, Hidden: c.desk.Hidden,
		Follows: func(look string) bool { return c.looks.VRM(look) != nil }, Window: c.gazeWindow, Pages: c.view}.Targets())
}
