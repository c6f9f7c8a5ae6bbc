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
// key of the first such preset. When its address is taken (another Yui, a
// `yui demo-backend` the user started, any other program) it listens on a
// free loopback port instead: a busy port must not break a first run, and
// a server someone else holds would not know this preset's key. The
// presets pointing at settings.DemoBaseURL follow the address actually
// used (Core.endpoint, the connection test, the body's demo check).
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
		c.log.Info("demo_backend_port_taken", "addr", addr, "err", err.Error())
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
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
