package pet

import (
	"context"
	"errors"
	"log/slog"

	"yui/app/capture"
	"yui/app/permission"
	"yui/app/session"
)

// newGate is the preset's screen permission, prompting through cfg and
// telling answers to answered.
func newGate(cfg Config, lg *slog.Logger, answered func(permission.Prompt, permission.Choice)) *permission.Gate {
	p := cfg.Preset
	backend := cfg.Backend
	if backend == "" {
		backend = p.ChatBaseURL
	}
	if backend == "" {
		backend = p.Name + "'s backend"
	}
	return permission.New(permission.Config{
		Preset:         p.ID,
		Backend:        backend,
		Permissions:    p.Permissions,
		Save:           cfg.SavePermission,
		OnPrompt:       cfg.OnPrompt,
		OnPromptClosed: cfg.OnPromptClosed,
		OnAnswered:     answered,
		Label:          func(i int) string { return monitorLabel(cfg.Screen, i) },
		Logger:         lg,
	})
}

// monitorLabel names monitor i for a prompt; "" when unknown.
func monitorLabel(src capture.Source, i int) string {
	if src == nil {
		return ""
	}
	ms, err := src.Monitors()
	if err != nil {
		return ""
	}
	m, _ := capture.Find(ms, i)
	return m.Label
}

// screenshotHook is the session's per-turn screenshot: taken only while
// the preset sends one with each turn and the gate allows it, of the
// monitor the character is on. Nil without a screen.
func screenshotHook(cfg Config, gate *permission.Gate, lg *slog.Logger) func() (session.TurnScreenshot, bool) {
	if cfg.Screen == nil {
		return nil
	}
	return func() (session.TurnScreenshot, bool) {
		shot, err := capture.EachTurn(context.Background(), gate, cfg.Screen, cfg.Body().Monitor)
		if err != nil {
			if !errors.Is(err, permission.ErrOff) {
				lg.Warn("screenshot_failed", "err", err.Error())
			}
			return session.TurnScreenshot{}, false
		}
		return session.TurnScreenshot{Monitor: shot.Monitor.Index, Label: shot.Monitor.Label, Pixels: shot.Image}, true
	}
}
