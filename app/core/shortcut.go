package core

import (
	"context"
	"errors"
	"sync"

	"yui/app/hotkey"
	"yui/app/view"
)

// shortcut is the global shortcut in force: what it is, the grab's
// cancel, and why it is not working ("" when it is).
type shortcut struct {
	mu     sync.Mutex
	combo  string // what is grabbed ("" none)
	cancel context.CancelFunc
	note   string
}

// grabber is the Grabber the core uses: Options.Hotkeys, or the system's
// when the core runs windows (a core without windows — tests, a browser
// front end — grabs nothing unless given one).
func (c *Core) grabber() hotkey.Grabber {
	if c.opts.Hotkeys != nil {
		return c.opts.Hotkeys
	}
	if c.opts.NoWindows {
		return nil
	}
	return hotkey.System()
}

// applyShortcut grabs the saved shortcut (again, when it changed) or lets
// it go (switched off, quitting). A combination another app holds, or a
// system without global shortcuts, is logged and told in the settings
// window (shortcutNote); the rest of Yui goes on.
func (c *Core) applyShortcut(on bool) {
	kb := c.store.Get().Keyboard
	want := kb.ShortcutOrDefault()
	if kb.ShortcutOff || !on {
		want = ""
	}
	c.short.mu.Lock()
	defer c.short.mu.Unlock()
	if want == c.short.combo && (want == "" || c.short.cancel != nil) {
		return
	}
	if c.short.cancel != nil {
		c.short.cancel()
		c.short.cancel = nil
	}
	c.short.combo, c.short.note = want, ""
	g := c.grabber()
	if want == "" || g == nil {
		return
	}
	combo, err := hotkey.Parse(want)
	if err == nil {
		ctx, cancel := context.WithCancel(context.Background())
		if err = g.Listen(ctx, combo, c.OpenComposer); err != nil {
			cancel()
		} else {
			c.short.cancel = cancel
			c.log.Info("shortcut_grabbed", "shortcut", combo.String())
			return
		}
	}
	c.log.Warn("shortcut_unavailable", "shortcut", want, "err", err.Error())
	if errors.Is(err, hotkey.ErrTaken) {
		c.short.note = want + " is already used by another app; choose another shortcut."
	} else {
		c.short.note = "The shortcut does not work here: " + err.Error()
	}
}

// shortcutNote says why the global shortcut does not work ("" when it
// does or is off).
func (c *Core) shortcutNote() string {
	c.short.mu.Lock()
	defer c.short.mu.Unlock()
	return c.short.note
}

// OpenComposer shows the main character (started again if hidden) and
// opens her composer, focused: what the global shortcut does. Safe from
// any goroutine.
func (c *Core) OpenComposer() {
	id := c.store.Get().ActivePreset
	c.log.Info("shortcut_pressed", "preset", id)
	if err := c.ShowPet(id); err != nil {
		c.log.Warn("window_show_failed", "preset", id, "err", err.Error())
		return
	}
	c.view.Send(view.RolePet, id, view.MustEncode(view.TypeOpenComposer, struct{}{}))
}
