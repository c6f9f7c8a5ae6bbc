package core

import (
	"context"
	"net/url"

	"yui/app/demobackend"
	"yui/app/settings"
)

// startDemo runs the embedded demo backend (demobackend.Embedded) when an
// enabled preset uses it, accepting the key of the first such preset. The
// presets pointing at settings.DemoBaseURL follow the address actually
// used (Core.endpoint, the connection test).
func (c *Core) startDemo(ctx context.Context) {
	var key string
	for _, p := range c.store.Get().Presets {
		if p.Enabled && p.ChatBaseURL == settings.DemoBaseURL {
			key = p.Key
			break
		}
	}
	if key == "" {
		return
	}
	addr := c.opts.DemoAddr
	if addr == "" {
		u, _ := url.Parse(settings.DemoBaseURL)
		addr = u.Host
	}
	at, err := demobackend.Embedded(ctx, addr, demobackend.Config{Key: key, Logger: c.log.With("proc", "demo"), DelegationDelay: c.opts.DemoDelegationDelay})
	if err != nil {
		c.log.Warn("demo_backend_failed", "addr", addr, "err", err.Error())
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
