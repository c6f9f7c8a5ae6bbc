package core

import (
	"context"
	"errors"
	"image"
	"os"

	"yui/app/capture"
	"yui/app/look"
	"yui/app/permission"
	"yui/app/session"
	"yui/app/settings"
	"yui/app/view"
	"yui/transport/push"
)

// eyes are what one pet window needs to look at the screen: the preset's
// permission gate, and (for main, the active preset) the look tool.
type eyes struct {
	gate *permission.Gate
	tool push.Tool // nil when this window does not declare look
}

// newEyes builds the gate for preset p, whose prompts the pet window shows.
func (c *Core) newEyes(pt *pet, p settings.Preset, main bool) eyes {
	src := c.screen
	gate := permission.New(permission.Config{
		Preset:      p.ID,
		Backend:     backendName(p),
		Permissions: p.Permissions,
		Save: func(m permission.Mode) error {
			// "Always" was answered to this gate's backend; a preset that
			// moved to another one since does not get it (keybind.go).
			bound := backendOrigin(p.ChatBaseURL)
			err := c.store.Change(func(s *settings.Settings) error {
				for i := range s.Presets {
					if s.Presets[i].ID != p.ID {
						continue
					}
					if backendOrigin(s.Presets[i].ChatBaseURL) != bound {
						return errors.New("the character's backend changed since it asked")
					}
					s.Presets[i].Permissions.Screen = string(m)
				}
				return nil
			})
			if err == nil {
				c.publishSettingsState()
			}
			return err
		},
		OnPrompt: func(pr permission.Prompt) {
			pt.publish(view.TypePermission, view.PermissionPrompt{ID: pr.ID, Backend: pr.Backend, Monitor: pr.Monitor, Label: pr.Label, Text: pr.Text()})
		},
		OnPromptClosed: func(uint64) { pt.publish(view.TypePermission, view.PermissionPrompt{}) },
		Label: func(i int) string {
			ms, err := src.Monitors()
			if err != nil {
				return ""
			}
			m, _ := capture.Find(ms, i)
			return m.Label
		},
		Logger: c.log.With("preset", p.ID),
	})
	e := eyes{gate: gate}
	if main {
		e.tool = look.New(look.Config{
			Body:    look.BodyFunc(func() look.BodyState { return c.bodyState(p.ID) }),
			Windows: look.X11Windows{},
			Screen:  src,
			Gate:    gate,
			OwnPIDs: []int{os.Getpid()},
			Logger:  c.log.With("preset", p.ID),
		})
	}
	return e
}

// screenshotHook is the session's per-turn screenshot: taken only while
// the preset sends one with each turn and the gate allows it.
func (c *Core) screenshotHook(id string, gate *permission.Gate) func() (session.TurnScreenshot, bool) {
	return func() (session.TurnScreenshot, bool) {
		m, png, err := capture.EachTurn(context.Background(), gate, c.screen, c.bodyState(id).Monitor)
		if err != nil {
			if !errors.Is(err, permission.ErrOff) {
				c.log.Warn("screenshot_failed", "preset", id, "err", err.Error())
			}
			return session.TurnScreenshot{}, false
		}
		return session.TurnScreenshot{Monitor: m.Index, Label: m.Label, Data: png}, true
	}
}

// bodyState is where the character is: her window's remembered top-left
// corner and the monitor holding the window's centre. Postures other than
// standing arrive with body_action.
func (c *Core) bodyState(id string) look.BodyState {
	b := look.BodyState{Posture: "standing"}
	p, ok := c.presetNow(id)
	if !ok || p.Window == nil {
		return b
	}
	b.Position = look.Point{X: p.Window.X, Y: p.Window.Y}
	if ms, err := c.screen.Monitors(); err == nil {
		r := image.Rect(p.Window.X, p.Window.Y, p.Window.X+PetWidth, p.Window.Y+PetHeight)
		if i := capture.Containing(ms, r); i >= 0 {
			b.Monitor = i
		}
	}
	return b
}

// backendName is how a prompt names the preset's backend.
func backendName(p settings.Preset) string {
	if p.ChatBaseURL == settings.DemoBaseURL {
		return "The demo backend"
	}
	if p.ChatBaseURL == "" {
		return p.Name + "'s backend"
	}
	return p.ChatBaseURL
}
