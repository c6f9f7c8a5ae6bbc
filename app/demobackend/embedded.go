package demobackend

import (
	"context"
	"log/slog"
	"net"
)

// Embedded runs a demo backend inside the calling process (the core, so a
// first run can chat at once) on addr, until ctx ends. When addr is taken
// (another Yui, a `yui demo-backend` the user started, any other program)
// it listens on a free loopback port instead: a busy port must not break
// a first run, and a server someone else holds would not know this key.
// It returns the http:// URL it serves at.
func Embedded(ctx context.Context, addr string, cfg Config) (string, error) {
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		lg.Info("demo_backend_port_taken", "addr", addr, "err", err.Error())
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return "", err
	}
	b := New(cfg)
	lg.Info("demo_backend_start", "addr", ln.Addr().String())
	go func() {
		if err := b.Serve(ctx, ln); err != nil {
			lg.Warn("demo_backend_failed", "addr", addr, "err", err.Error())
		}
	}()
	return "http://" + ln.Addr().String(), nil
}
