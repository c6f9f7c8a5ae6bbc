package core

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"yui/app/permission"
	"yui/app/settings"
	"yui/app/view"
)

// onConnect greets a shell with its window configuration.
func (c *Core) onConnect(peer view.Peer) {
	switch peer.Role {
	case view.RoleMessage:
		c.sendTranscript(peer.Preset)
		return
	case view.RoleMessageShell:
		all := c.store.Get()
		p, ok := all.Preset(peer.Preset)
		if !ok {
			c.log.Warn("view_unknown_preset", "preset", peer.Preset)
			return
		}
		c.view.Send(view.RoleMessageShell, p.ID, view.MustEncode(view.TypeWindowConfig, c.messageWindowConfig(p)))
		return
	case view.RoleShell:
	default:
		return
	}
	if peer.Preset == "" {
		cfg := settingsWindowConfig()
		cfg.PageToken = c.pageToken("")
		at, ok := c.settingsPosition()
		if ok {
			cfg.X, cfg.Y = &at.X, &at.Y
		}
		c.settingsOpened(at, ok) // placement.go
		c.view.Send(view.RoleShell, "", view.MustEncode(view.TypeWindowConfig, cfg))
		return
	}
	all := c.store.Get()
	p, ok := all.Preset(peer.Preset)
	if !ok {
		c.log.Warn("view_unknown_preset", "preset", peer.Preset)
		return
	}
	cfg := view.WindowConfig{Kind: view.WindowPet, Title: petTitle(p.Name), Width: PetWidth, Height: PetHeight, PageToken: c.pageToken(p.ID)}
	if at, ok := c.petPosition(p.ID); ok {
		cfg.X, cfg.Y = &at.X, &at.Y
	}
	c.view.Send(view.RoleShell, p.ID, view.MustEncode(view.TypeWindowConfig, cfg))
}

// onMessage handles what windows send. Malformed messages are logged and
// dropped.
func (c *Core) onMessage(peer view.Peer, m view.Message) {
	c.trace(map[string]any{"event": "view_in", "role": peer.Role, "preset": peer.Preset, "message": traceBody(m)})
	switch m.Type {
	case view.TypeSendText:
		var st view.SendText
		if err := json.Unmarshal(m.Body, &st); err != nil {
			c.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
			return
		}
		c.sendText(peer.Preset, st)
	case view.TypeWindowPosition:
		if peer.Role != view.RoleShell || peer.Preset == "" {
			c.log.Warn("view_refused", "type", m.Type, "role", peer.Role, "reason", "only a pet window's shell reports its position")
			return
		}
		var wp view.WindowPosition
		if err := json.Unmarshal(m.Body, &wp); err != nil {
			c.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
			return
		}
		c.moved(peer.Preset, wp)
	case view.TypeWindowHidden:
		if peer.Role != view.RoleShell || peer.Preset != "" {
			c.log.Warn("view_refused", "type", m.Type, "role", peer.Role, "reason", "only the settings window's shell reports hiding")
			return
		}
		c.log.Info("settings_hidden")
		c.settingsHidden()
	case view.TypePermissionAnswer:
		var a view.PermissionAnswer
		if err := json.Unmarshal(m.Body, &a); err != nil {
			c.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
			return
		}
		c.answerPermission(peer.Preset, a)
	case view.TypeListenHold, view.TypeListenTarget, view.TypeListenMeter:
		c.onListenMessage(peer, m)
	case view.TypeTouch, view.TypeLookFailed, view.TypeLookThumbnail, view.TypeLookOptions:
		c.onLookMessage(peer, m)
	case view.TypeOpenSettings:
		var o view.OpenSettings
		if err := json.Unmarshal(m.Body, &o); err != nil {
			c.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
			return
		}
		c.openSettings(peer.Preset, o.Section)
	case view.TypePresetAction:
		if peer.Role != view.RoleSettings {
			c.log.Warn("view_refused", "type", m.Type, "role", peer.Role, "reason", "pet pages act on their own preset")
			return
		}
		var a view.PresetAction
		if err := json.Unmarshal(m.Body, &a); err != nil {
			c.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
			return
		}
		c.presetAction(a)
	case view.TypeShowWindow:
		if peer.Role != view.RolePet && peer.Role != view.RoleSettings {
			c.log.Warn("view_refused", "type", m.Type, "role", peer.Role, "reason", "only pages ask to show a window")
			return
		}
		var sw view.ShowWindow
		if err := json.Unmarshal(m.Body, &sw); err != nil {
			c.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
			return
		}
		if sw.Preset == "" {
			sw.Preset = peer.Preset
		}
		if err := c.ShowPet(sw.Preset); err != nil {
			c.log.Warn("view_unknown_preset", "preset", sw.Preset, "type", m.Type)
		}
	case view.TypeSaveSettings:
		if peer.Role != view.RoleSettings {
			c.log.Warn("view_refused", "type", m.Type, "role", peer.Role, "reason", "only the settings window saves settings")
			return
		}
		var req view.SaveSettings
		if err := json.Unmarshal(m.Body, &req); err != nil {
			c.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
			// Answer the request id if it can be read, so the form stops
			// waiting.
			var id struct {
				RequestID any `json:"request_id"`
			}
			json.Unmarshal(m.Body, &id)
			rid, _ := id.RequestID.(string)
			c.view.Send(view.RoleSettings, "", view.MustEncode(view.TypeSettingsResult,
				view.SettingsResult{RequestID: rid, OK: false, Error: "the form sent something unreadable: " + err.Error()}))
			return
		}
		c.saveSettings(req)
	case view.TypeTestConnection:
		if peer.Role != view.RoleSettings {
			c.log.Warn("view_refused", "type", m.Type, "role", peer.Role, "reason", "only the settings window tests connections")
			return
		}
		var req view.TestConnection
		if err := json.Unmarshal(m.Body, &req); err != nil {
			c.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
			return
		}
		c.testConnection(req)
	case view.TypeMute:
		if peer.Role != view.RolePet {
			c.log.Warn("view_refused", "type", m.Type, "role", peer.Role, "reason", "the pet menu mutes")
			return
		}
		var mu view.Mute
		if err := json.Unmarshal(m.Body, &mu); err != nil {
			c.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
			return
		}
		c.muteFromPage(peer.Preset, mu)
	case view.TypeDismiss:
		var d view.Dismiss
		if json.Unmarshal(m.Body, &d) == nil && d.ID != "" {
			c.view.Publish(peer.Preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: d.ID}))
		}
	case view.TypeDesktopAction:
		c.desktopAction(peer, m)
	case view.TypeOpenMessages:
		if peer.Role != view.RolePet {
			c.log.Warn("view_refused", "type", m.Type, "role", peer.Role, "reason", "the pet window opens its messages")
			return
		}
		c.openMessages(peer.Preset)
	case view.TypeStop, view.TypeReconnect, view.TypeReset:
		pt := c.pet(peer.Preset)
		if pt == nil {
			c.log.Warn("view_unknown_preset", "preset", peer.Preset)
			return
		}
		c.log.Info("view_action", "type", m.Type, "preset", peer.Preset)
		switch m.Type {
		case view.TypeStop:
			pt.sess.Stop()
		case view.TypeReconnect:
			pt.sess.Reconnect()
		case view.TypeReset:
			c.resetConversation(pt)
		}
	default:
		c.log.Warn("view_unknown", "type", m.Type, "role", peer.Role)
	}
}

// presetAction passes a settings-window action to the preset's session; a
// preset with no running pet (switched off) or an unknown action is logged
// and dropped.
func (c *Core) presetAction(a view.PresetAction) {
	pt := c.pet(a.Preset)
	if pt == nil {
		c.log.Warn("view_unknown_preset", "preset", a.Preset, "type", view.TypePresetAction)
		return
	}
	switch a.Action {
	case view.TypeReconnect:
		pt.sess.Reconnect()
	case view.TypeReset:
		c.resetConversation(pt)
	case "show":
		c.ShowPet(a.Preset)
	default:
		c.log.Warn("view_malformed", "type", view.TypePresetAction, "action", a.Action)
		return
	}
	c.log.Info("view_action", "type", a.Action, "preset", a.Preset, "from", view.RoleSettings)
}

// traceBody is a received message as the trace shows it: a typed key in a
// save_settings is replaced by "(redacted)".
func traceBody(m view.Message) json.RawMessage {
	if m.Type == view.TypeTestConnection {
		var v map[string]any
		if json.Unmarshal(m.Body, &v) != nil {
			return json.RawMessage(`{"type":"` + m.Type + `","unreadable":true}`)
		}
		if _, has := v["key"]; has {
			v["key"] = "(redacted)"
		}
		b, _ := json.Marshal(v)
		return b
	}
	if m.Type != view.TypeSaveSettings {
		return json.RawMessage(m.Body)
	}
	var v map[string]any
	if json.Unmarshal(m.Body, &v) != nil {
		return json.RawMessage(`{"type":"save_settings","unreadable":true}`)
	}
	if _, has := v["listen_key"]; has {
		v["listen_key"] = "(redacted)"
	}
	if ps, ok := v["presets"].([]any); ok {
		for _, p := range ps {
			if pm, ok := p.(map[string]any); ok {
				for _, k := range []string{"key", "voice_key"} {
					if _, has := pm[k]; has {
						pm[k] = "(redacted)"
					}
				}
			}
		}
	}
	b, _ := json.Marshal(v)
	return b
}

// MaxAttachments is the most images one typed turn carries.
const MaxAttachments = 6

// sendText hands a typed line (and its attached images) to the preset's
// session. An image the session refuses is reported in the composer's
// error line and the text is not sent, so nothing the user meant to send
// goes out without it.
func (c *Core) sendText(preset string, st view.SendText) {
	c.dropTip(preset) // she has been talked to: the tip has done its job
	text := strings.TrimSpace(st.Text)
	pt := c.pet(preset)
	if pt == nil {
		c.log.Warn("view_unknown_preset", "preset", preset)
		return
	}
	if text == "" && len(st.Images) == 0 {
		return
	}
	c.log.Info("view_action", "type", view.TypeSendText, "preset", preset, "chars", utf8.RuneCountInString(text), "images", len(st.Images))
	if len(st.Images) > MaxAttachments {
		c.composerError(preset, fmt.Sprintf("At most %d images can go with one message.", MaxAttachments))
		return
	}
	images := make([][]byte, len(st.Images))
	for i, u := range st.Images {
		data, err := decodeDataURL(u)
		if err != nil {
			c.composerError(preset, fmt.Sprintf("Image %d could not be attached: %v.", i+1, err))
			return
		}
		images[i] = data
	}
	// All or nothing: a refused image refuses the message, and the page
	// keeps the text and images for the user to fix.
	if _, err := pt.sess.SendTyped(text, images); err != nil {
		c.composerError(preset, "The message was not sent: "+strings.TrimPrefix(err.Error(), "session: ")+".")
	}
}

func (c *Core) composerError(preset, text string) {
	c.view.Publish(preset, view.TypeErrorLine, view.MustEncode(view.TypeErrorLine, view.ErrorLine{Text: text, Where: "composer"}))
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

// answerPermission passes the prompt's answer to the preset's gate; an
// unknown answer or a stale prompt is logged and dropped.
func (c *Core) answerPermission(preset string, a view.PermissionAnswer) {
	pt := c.pet(preset)
	if pt == nil {
		c.log.Warn("view_unknown_preset", "preset", preset)
		return
	}
	choice, ok := permission.ParseChoice(a.Answer)
	if !ok {
		c.log.Warn("view_malformed", "type", view.TypePermissionAnswer, "answer", a.Answer)
		return
	}
	err := pt.gate.Answer(a.ID, choice)
	// The prompt goes either way: an answer to a stale prompt has nothing
	// left to show, and a failed save is told as a notice.
	pt.publish(view.TypePermission, view.PermissionPrompt{})
	if err != nil {
		c.log.Warn("permission_answer_refused", "preset", preset, "err", err.Error())
		if choice == permission.Always {
			c.view.Publish(preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: "permission_save",
				Text: "Your answer could not be saved in the settings (" + err.Error() + "). Yui will ask again next time."}))
		}
	}
}
