package core

import (
	"context"
	"net"
	"net/url"

	"yui/app/demobackend"
	"yui/app/settings"
)

// startDemo runs the embedded demo backend in the core process when an
// enabled preset uses it, so a first run can chat at once. It accepts the
// key of the first such preset. An address already in use (another Yui, or
// a `yui demo-backend` the user started) is logged and left to whoever holds
// it; the presets then talk to that one.
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
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		c.log.Warn("demo_backend_failed", "addr", addr, "err", err.Error())
		return
	}
	b := demobackend.New(demobackend.Config{Key: key, Logger: c.log.With("proc", "demo"), DelegationDelay: c.opts.DemoDelegationDelay})
	c.demoMu.Lock()
	c.demoAt = "http://" + ln.Addr().String()
	c.demoMu.Unlock()
	c.log.Info("demo_backend_start", "addr", ln.Addr().String())
	go func() {
		if err := b.Serve(ctx, ln); err != nil {
			c.log.Warn("demo_backend_failed", "addr", addr, "err", err.Error())
		}
	}()
}
