package core

import (
	"context"

	"yui/app/demobackend"
)

// startDemo runs the embedded demo backend when an enabled preset uses it
// (demobackend.ForPresets). The presets pointing at settings.DemoBaseURL
// follow the address actually used (Core.endpoint, the connection test).
func (c *Core) startDemo(ctx context.Context) {
	at, err := demobackend.ForPresets(ctx, c.store.Get().Presets, c.opts.DemoAddr,
		demobackend.Config{Logger: c.log.With("proc", "demo"), DelegationDelay: c.opts.DemoDelegationDelay})
	if err != nil {
		c.log.Warn("demo_backend_failed", "err", err.Error())
		return
	}
	c.demoMu.Lock()
	c.demoAt = at
	c.demoMu.Unlock()
}

func (c *Core) demoURL() string {
	c.demoMu.Lock()
	defer c.demoMu.Unlock()
	return c.demoAt
}
