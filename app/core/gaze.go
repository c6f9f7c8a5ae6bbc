package core

import (
	"context"
	"image"

	"yui/app/core/gaze"
	"yui/app/core/windows"
	"yui/app/view"
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

// updateGaze makes the characters that follow the pointer those that
// run, are not hidden and wear a VRM look; with none, nothing watches
// the pointer. Her window is where her settings place it (the desktop
// room saves each move), PetWidth × PetHeight.
func (c *Core) updateGaze() {
	c.gazeMu.Lock()
	k := c.gaze
	c.gazeMu.Unlock()
	if k == nil {
		return
	}
	targets := map[string]gaze.Target{}
	for _, p := range c.store.Get().Presets {
		if !p.Enabled || c.pet(p.ID) == nil || c.desk.Hidden(p.ID) || c.looks.VRM(p.Look) == nil {
			continue
		}
		id := p.ID
		targets[id] = gaze.Target{
			Window: func() (image.Rectangle, bool) {
				all := c.store.Get()
				p, ok := all.Preset(id)
				if !ok || p.Window == nil || c.desk.Hidden(id) {
					return image.Rectangle{}, false
				}
				return image.Rect(p.Window.X, p.Window.Y, p.Window.X+windows.PetWidth, p.Window.Y+windows.PetHeight), true
			},
			Send: func(pt view.Pointer) {
				c.view.Send(view.RolePet, id, view.MustEncode(view.TypePointer, pt))
			},
		}
	}
	k.Set(targets)
}
