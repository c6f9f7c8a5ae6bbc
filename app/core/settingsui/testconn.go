package settingsui

import (
	"context"
	"strings"
	"time"

	apppet "yui/app/pet"
	"yui/app/settings"
	"yui/app/view"
)

// testWait bounds one "Test connection".
const testWait = 15 * time.Second

// TestConnection answers the settings page's "Test connection" with what
// the backend in the form says. A typed key is used as typed; otherwise
// the saved key goes only to the saved base URL. It runs on its own
// goroutine: a slow server holds up nothing else.
func (r *Room) TestConnection(req view.TestConnection) {
	base := strings.TrimSpace(req.ChatBaseURL)
	all := r.cfg.Store.Get()
	saved, hasSaved := all.Preset(req.Preset)
	key := ""
	switch {
	case req.Key != nil && strings.TrimSpace(*req.Key) != "":
		key = strings.TrimSpace(*req.Key)
	case hasSaved && strings.TrimSpace(saved.ChatBaseURL) == base:
		key = saved.Key
	case !hasSaved && req.KeyFrom != "":
		key = keyFromPreset(all, req.KeyFrom, base) // newpreset.go
	}
	chatID := saved.ChatID
	if chatID == "" {
		chatID = settings.NewChatID()
	}
	target := base
	if base == settings.DemoBaseURL {
		if u := r.cfg.Host.DemoURL(); u != "" {
			target = u
		}
	}
	r.log.Info("connection_test", "preset", req.Preset, "chat_api", req.ChatAPI)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		var res apppet.ProbeResult
		if req.ChatAPI == apppet.StandardAgents {
			res = apppet.ProbeThreads(ctx, nil, target, key, req.AgentID, req.ThreadID)
		} else {
			res = apppet.Probe(ctx, nil, req.ChatAPI, target, key, chatID)
		}
		r.log.Info("connection_tested", "preset", req.Preset, "kind", res.Kind)
		models := res.Models
		if models == nil {
			models = []string{}
		}
		agents := make([]view.AgentItem, len(res.Agents))
		for i, a := range res.Agents {
			agents[i] = view.AgentItem{ID: a.ID, Label: a.Label}
		}
		r.cfg.Pages.Send(view.RoleSettings, "", view.MustEncode(view.TypeConnectionTest,
			view.ConnectionTest{RequestID: req.RequestID, Preset: req.Preset, Kind: res.Kind, Text: res.Text, Msg: res.Msg, Models: models, Agents: agents,
				Cause: res.Cause, Settings: res.Settings}))
	}()
}
