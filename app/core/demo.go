package core

import (
	"context"
	"net/url"

	"yui/app/demobackend"
	"yui/app/settings"
)

// startDemo runs the embedded demo backend in the core process when an
// enabled preset uses it, so a first run can chat at once. It accepts the
// key of the first such preset. A port already in use (another Yui, or a
// `yui demo-backend` the user started) is logged and left to whoever holds
// it.
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
	u, _ := url.Parse(settings.DemoBaseURL)
	b := demobackend.New(demobackend.Config{Key: key, Logger: c.log.With("proc", "demo")})
	go func() {
		c.log.Info("demo_backend_start", "addr", u.Host)
		if err := b.Run(ctx, u.Host); err != nil {
			c.log.Warn("demo_backend_failed", "addr", u.Host, "err", err.Error())
		}
	}()
}
