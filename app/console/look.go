package console

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"

	"yui/app/capture"
	"yui/app/look"
	"yui/app/permission"
	"yui/app/session"
	"yui/app/settings"
)

// eyes are the console's look tool, the preset's screen permission and
// the per-turn screenshot hook. The console has no body: it stands on
// monitor 0.
type eyes struct {
	gate   *permission.Gate
	tool   *look.Tool
	screen capture.Source // nil: no display
	log    *slog.Logger
}

// newEyes builds them for preset; screen and windows nil mean the X
// display of $DISPLAY when one is set, else none. Prompts print on out;
// "always" is saved to the preset in store.
func newEyes(store *settings.Store, preset settings.Preset, screen capture.Source, windows look.Windows, out *printer, log *slog.Logger) *eyes {
	if screen == nil && os.Getenv("DISPLAY") != "" {
		screen = capture.NewX11(log)
		if windows == nil {
			windows = look.X11Windows{}
		}
	}
	e := &eyes{screen: screen, log: log}
	backend := preset.ChatBaseURL
	if backend == "" {
		backend = preset.Name + "'s backend"
	}
	e.gate = permission.New(permission.Config{
		Preset: preset.ID, Backend: backend, Permissions: preset.Permissions, Logger: log,
		Save: func(m permission.Mode) error {
			return store.Update(func(s *settings.Settings) {
				for i := range s.Presets {
					if s.Presets[i].ID == preset.ID {
						s.Presets[i].Permissions.Screen = string(m)
					}
				}
			})
		},
		OnPrompt:       out.prompt,
		OnPromptClosed: func(id uint64) { out.promptClosed(id) },
		Label:          e.label,
	})
	e.tool = look.New(look.Config{Screen: screen, Windows: windows, Gate: e.gate, OwnPIDs: []int{os.Getpid()}, Logger: log})
	return e
}

// label names a monitor for the prompt.
func (e *eyes) label(monitor int) string {
	if e.screen == nil {
		return ""
	}
	ms, err := e.screen.Monitors()
	if err != nil {
		return ""
	}
	m, _ := capture.Find(ms, monitor)
	return m.Label
}

// screenshot is the session's per-turn screenshot hook (monitor 0).
func (e *eyes) screenshot() (session.TurnScreenshot, bool) {
	if e.screen == nil {
		return session.TurnScreenshot{}, false
	}
	m, b, err := capture.EachTurn(context.Background(), e.gate, e.screen, 0)
	if err != nil {
		if !errors.Is(err, permission.ErrOff) {
			e.log.Info("capture.each_turn_skipped", "err", err.Error())
		}
		return session.TurnScreenshot{}, false
	}
	return session.TurnScreenshot{Monitor: m.Index, Label: m.Label, Data: b}, true
}

// answer applies "/allow once|always|deny" to the open prompt and
// returns the prompt's id and the choice applied.
func (e *eyes) answer(arg string) (uint64, permission.Choice, error) {
	c, ok := permission.ParseChoice(arg)
	if !ok {
		return 0, c, errors.New("usage: /allow once | always | deny")
	}
	p, open := e.gate.Open()
	if !open {
		return 0, c, errors.New("no screen permission prompt is open")
	}
	return p.ID, c, e.gate.Answer(p.ID, c)
}

// validateLook is the look tool's argument check.
func validateLook(args json.RawMessage) error { return look.New(look.Config{}).Validate(args) }
