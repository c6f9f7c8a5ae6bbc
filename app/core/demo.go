package core

import (
	"context"

	"yui/app/demobackend"
	"yui/app/i18n"
)

// startDemo runs the embedded demo backend when an enabled preset uses it
// (demobackend.ForPresets). The presets pointing at settings.DemoBaseURL
// follow the address actually used (Core.endpoint, the connection test).
// She speaks the UI language until the user writes; then the user's.
func (c *Core) startDemo(ctx context.Context) {
	all := c.store.Get()
	at, err := demobackend.ForPresets(ctx, all.Presets, c.opts.DemoAddr,
		demobackend.Config{Logger: c.log.With("proc", "demo"), DelegationDelay: c.opts.DemoDelegationDelay,
			Language: all.UILanguage(i18n.SystemLocale())})
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
