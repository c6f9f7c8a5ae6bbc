package core

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"yui/app/core/route"
	"yui/app/permission"
	"yui/app/view"
	"yui/transport/dataurl"
)

// onMessage handles what windows send, through the route table.
func (c *Core) onMessage(peer view.Peer, m view.Message) {
	c.trace(map[string]any{"event": "view_in", "role": peer.Role, "preset": peer.Preset, "message": traceBody(m)})
	c.routes.Serve(peer, m)
}

// addRoutes registers what the pet pages and the settings page ask of a
// character.
func (c *Core) addRoutes(t *route.Table) {
	lg := c.log
	t.Add(route.JSON(lg, func(p view.Peer, st view.SendText) { c.sendText(p.Preset, st) }), view.TypeSendText)
	t.Add(route.JSON(lg, func(p view.Peer, a view.PermissionAnswer) { c.answerPermission(p.Preset, a) }), view.TypePermissionAnswer)
	t.Add(route.Only(lg, route.Roles(view.RoleSettings), "pet pages act on their own preset",
		route.JSON(lg, func(_ view.Peer, a view.PresetAction) { c.presetAction(a) })), view.TypePresetAction)
	t.Add(route.Only(lg, route.Roles(view.RolePet), "the pet menu mutes",
		route.JSON(lg, func(p view.Peer, mu view.Mute) { c.muteFromPage(p.Preset, mu) })), view.TypeMute)
	t.Add(func(p view.Peer, m view.Message) {
		var d view.Dismiss
		if json.Unmarshal(m.Body, &d) == nil && d.ID != "" {
			c.view.Publish(p.Preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: d.ID}))
		}
	}, view.TypeDismiss)
	t.Add(route.Only(lg, route.Roles(view.RolePet), "the pet window opens its messages",
		func(p view.Peer, _ view.Message) { c.openMessages(p.Preset) }), view.TypeOpenMessages)
	t.Add(c.sessionAction, view.TypeStop, view.TypeReconnect, view.TypeReset)
}

// sessionAction passes a pet page's stop, reconnect or reset to her
// session.
func (c *Core) sessionAction(peer view.Peer, m view.Message) {
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
		c.desk.ShowPet(a.Preset)
	default:
		c.log.Warn("view_malformed", "type", view.TypePresetAction, "action", a.Action)
		return
	}
	c.log.Info("view_action", "type", a.Action, "preset", a.Preset, "from", view.RoleSettings)
}

// traceBody is a received message as the trace shows it: a typed key in a
// save_settings is replaced by "(redacted)".
func traceBody(m view.Message) json.RawMessage {
	if m.Type == view.TypeTestConnection || m.Type == view.TypeSaveListen {
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
		_, data, err := dataurl.Decode(u) // the type is not trusted: the session sniffs the bytes
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
	pt.view.ClosePrompt()
	if err != nil {
		c.log.Warn("permission_answer_refused", "preset", preset, "err", err.Error())
		if choice == permission.Always {
			c.view.Publish(preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: "permission_save",
				Text: "Your answer could not be saved in the settings (" + err.Error() + "). Yui will ask again next time."}))
		}
	}
}

// resetConversation is New conversation, from the pet menu, the settings
// window or the message window: the session stops and resets, and the
// transcript is emptied (what is shown and what a request transport
// sends).
func (c *Core) resetConversation(pt *pet) {
	pt.sess.Reset()
	pt.view.ClearTranscript()
}
