package core

import (
	"context"
	"encoding/json"
	"fmt"
)

// Run serves the view protocol, starts the pet windows, and blocks until
// ctx ends or Quit is called; then it closes every window and returns nil.
func (c *Core) Run(ctx context.Context) error {
	if err := c.view.Listen(); err != nil {
		return fmt.Errorf("core: %w", err)
	}
	if c.opts.Demo {
		c.startDemo(ctx)
	}
	go c.front.Run(ctx)
	life, endLife := context.WithCancel(ctx)
	defer endLife()
	go c.runCompanion(life)
	c.applyMu.Lock()
	c.pets.Start(func(pt *pet) { pt.Session.Start() })
	// The pet windows start first: a window process takes ≈ 80 ms to
	// load before it dials, which the rest of the start overlaps
	// (docs/performance.md, "Windows that answer at once").
	if !c.opts.NoWindows {
		c.desk.StartWindows()
	}
	c.publishRooms()
	c.log.Info("core_ready", "view", c.view.URL())
	c.trace(map[string]any{"event": "core_ready", "view_url": c.view.URL(), "pages_url": "http://" + c.view.Addr() + "/",
		"page_tokens": c.wins.PageTokens(c.pets.IDs()), "demo_url": c.demoURL()})
	c.applyMu.Unlock()
	c.startGaze(ctx)
	c.desk.ApplyShortcut(true)
	if c.desk.ShortcutNote() != "" {
		c.sui.PublishState() // the settings window says why
	}
	// The microphone opens now if listening is on (never before Run).
	c.ear.Apply()
	if c.opts.OpenSettings {
		c.OpenSettingsWindow()
	}
	select {
	case <-ctx.Done():
	case <-c.desk.Quitting():
	}
	c.log.Info("core_stopping")
	endLife() // no proactive turn from here on
	// No settings change starts a pet or window from here on.
	c.applyMu.Lock()
	c.stopping = true
	c.applyMu.Unlock()
	c.pets.Stop()
	c.desk.ApplyShortcut(false)
	// The supervisor stops first (it restarts no window from here on);
	// closing the view server then ends every shell connection, a window
	// process exits when its connection ends, and the supervisor reaps
	// it (and terminates any that linger).
	c.ear.Close()
	reaped := make(chan struct{})
	go func() {
		c.sup.Stop()
		close(reaped)
	}()
	c.view.Close()
	<-reaped
	c.closePets()
	c.rel.Close()
	if c.opts.Sound != nil {
		c.opts.Sound.Close()
	}
	if c.turnLog != nil {
		c.turnLog.Close()
	}
	c.log.Info("core_stopped")
	return nil
}

func (c *Core) trace(v any) {
	if c.opts.Trace == nil {
		return
	}
	b, _ := json.Marshal(v)
	c.traceMu.Lock()
	c.opts.Trace.Write(append(b, '\n'))
	c.traceMu.Unlock()
}
