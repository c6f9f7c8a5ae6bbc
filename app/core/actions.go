package core

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"yui/app/settings"
	"yui/app/view"
)

// onConnect greets a shell with its window configuration.
func (c *Core) onConnect(peer view.Peer) {
	if peer.Role != view.RoleShell {
		return
	}
	all := c.store.Get()
	p, ok := all.Preset(peer.Preset)
	if !ok {
		c.log.Warn("view_unknown_preset", "preset", peer.Preset)
		return
	}
	cfg := view.WindowConfig{Title: "Yui — " + p.Name, Width: PetWidth, Height: PetHeight}
	if p.Window != nil {
		x, y := p.Window.X, p.Window.Y
		cfg.X, cfg.Y = &x, &y
	}
	c.view.Send(view.RoleShell, p.ID, view.MustEncode(view.TypeWindowConfig, cfg))
}

// onMessage handles what windows send. Malformed messages are logged and
// dropped.
func (c *Core) onMessage(peer view.Peer, m view.Message) {
	c.trace(map[string]any{"event": "view_in", "role": peer.Role, "preset": peer.Preset, "message": json.RawMessage(m.Body)})
	switch m.Type {
	case view.TypeSendText:
		var st view.SendText
		if err := json.Unmarshal(m.Body, &st); err != nil {
			c.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
			return
		}
		c.sendText(peer.Preset, st.Text)
	case view.TypeWindowPosition:
		var wp view.WindowPosition
		if err := json.Unmarshal(m.Body, &wp); err != nil {
			c.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
			return
		}
		c.savePosition(peer.Preset, wp)
	case view.TypeDismiss:
		var d view.Dismiss
		if json.Unmarshal(m.Body, &d) == nil && d.ID != "" {
			c.view.Publish(peer.Preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: d.ID}))
		}
	case view.TypeStop, view.TypeReconnect:
		c.log.Info("view_action", "type", m.Type, "preset", peer.Preset)
	default:
		c.log.Warn("view_unknown", "type", m.Type, "role", peer.Role)
	}
}

// sendText takes a typed line. Until a session owns the preset's
// connection there is nobody to send it to, so the user is told.
func (c *Core) sendText(preset, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	c.log.Info("view_action", "type", view.TypeSendText, "preset", preset, "chars", utf8.RuneCountInString(text))
	c.view.Publish(preset, view.TypeErrorLine, view.MustEncode(view.TypeErrorLine, view.ErrorLine{
		Text: "Not connected to a backend, so the message was not sent.", Where: "composer",
	}))
}

func (c *Core) savePosition(preset string, wp view.WindowPosition) {
	err := c.store.Update(func(s *settings.Settings) {
		for i := range s.Presets {
			if s.Presets[i].ID == preset {
				s.Presets[i].Window = &settings.Position{X: wp.X, Y: wp.Y}
			}
		}
	})
	if err != nil {
		c.log.Error("settings_save_failed", "err", err.Error())
		return
	}
	c.log.Info("window_moved", "preset", preset, "x", wp.X, "y", wp.Y)
}
