package demobackend

import (
	"context"
	"fmt"
	"net/url"

	"yui/app/settings"
)

// ForPresets runs Embedded when an enabled preset uses the demo backend
// (settings.DemoBaseURL), accepting the key of the first such preset; addr
// "" is DemoBaseURL's address. It returns "" and no error when none uses
// it (or that preset has no key).
func ForPresets(ctx context.Context, presets []settings.Preset, addr string, cfg Config) (string, error) {
	for _, p := range presets {
		if p.Enabled && p.ChatBaseURL == settings.DemoBaseURL {
			cfg.Key = p.Key
			break
		}
	}
	if cfg.Key == "" {
		return "", nil
	}
	if addr == "" {
		u, _ := url.Parse(settings.DemoBaseURL)
		addr = u.Host
	}
	at, err := Embedded(ctx, addr, cfg)
	if err != nil {
		return "", fmt.Errorf("demo backend on %s: %w", addr, err)
	}
	return at, nil
}
