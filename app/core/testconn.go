package core

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

// testConnection answers the settings page's "Test connection" with what
// the backend in the form says. A typed key is used as typed; otherwise
// the saved key goes only to the saved base URL. It runs on its own
// goroutine: a slow server holds up nothing else.
func (c *Core) testConnection(req view.TestConnection) {
	base := strings.TrimSpace(req.ChatBaseURL)
	saved, hasSaved := c.presetNow(req.Preset)
	key := ""
	switch {
	case req.Key != nil && strings.TrimSpace(*req.Key) != "":
		key = strings.TrimSpace(*req.Key)
	case hasSaved && strings.TrimSpace(saved.ChatBaseURL) == base:
		key = saved.Key
	case !hasSaved && req.KeyFrom != "":
		key = keyFromPreset(c.store.Get(), req.KeyFrom, base) // newpreset.go
	}
	chatID := saved.ChatID
	if chatID == "" {
		chatID = settings.NewChatID()
	}
	target := base
	if base == settings.DemoBaseURL {
		if u := c.demoURL(); u != "" {
			target = u
		}
	}
	c.log.Info("connection_test", "preset", req.Preset, "chat_api", req.ChatAPI)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		var r apppet.ProbeResult
		if req.ChatAPI == apppet.StandardAgents {
			r = apppet.ProbeThreads(ctx, nil, target, key, req.AgentID, req.ThreadID)
		} else {
			r = apppet.Probe(ctx, nil, req.ChatAPI, target, key, chatID)
		}
		c.log.Info("connection_tested", "preset", req.Preset, "kind", r.Kind)
		models := r.Models
		if models == nil {
			models = []string{}
		}
		agents := make([]view.AgentItem, len(r.Agents))
		for i, a := range r.Agents {
			agents[i] = view.AgentItem{ID: a.ID, Label: a.Label}
		}
		c.view.Send(view.RoleSettings, "", view.MustEncode(view.TypeConnectionTest,
			view.ConnectionTest{RequestID: req.RequestID, Preset: req.Preset, Kind: r.Kind, Text: r.Text, Models: models, Agents: agents,
				Cause: r.Cause, Settings: r.Settings}))
	}()
}
