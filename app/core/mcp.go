package core

import (
	"errors"
	"log/slog"
	"slices"

	"yui/app/core/backend"
	"yui/app/mcp"
	apppet "yui/app/pet"
	"yui/app/settings"
)

// newMCP is preset p's MCP hub, started: her servers on a request wire,
// their prompts in her page; nil on push and Standard Agents or without
// servers (docs/mcp.md).
func (c *Core) newMCP(p settings.Preset, slot *promptSlot, lg *slog.Logger) *mcp.Hub {
	if !apppet.MCPApplies(p.ChatAPI) || len(p.MCPServers) == 0 {
		return nil
	}
	id := p.ID
	h := mcp.New(mcp.Config{
		Preset:         id,
		Backend:        backend.Name(p),
		Servers:        p.MCPServers,
		Grants:         p.MCPGrants,
		SaveGrant:      func(tool, mode string) error { return c.saveMCPGrant(id, tool, mode) },
		OnPrompt:       slot.show,
		OnPromptClosed: slot.withdraw,
		Logger:         lg,
	})
	h.Start()
	return h
}

// saveMCPGrant saves the user's always or deny for one of preset id's
// MCP tools.
func (c *Core) saveMCPGrant(id, tool, mode string) error {
	defer c.mind.Publish()
	return c.store.Change(func(s *settings.Settings) error {
		for i := range s.Presets {
			if s.Presets[i].ID != id {
				continue
			}
			if s.Presets[i].MCPGrants == nil {
				s.Presets[i].MCPGrants = settings.MCPGrants{}
			}
			s.Presets[i].MCPGrants[tool] = mode
			return nil
		}
		return errors.New("the character is gone")
	})
}

// mcpChanged reports a change of a preset's MCP servers: her hub (and
// the tools her transport declares) is made anew.
func mcpChanged(a, b settings.Preset) bool {
	return !slices.EqualFunc(a.MCPServers, b.MCPServers, func(x, y settings.MCPServer) bool {
		return x.Name == y.Name && x.Command == y.Command && x.URL == y.URL && x.Off == y.Off && slices.Equal(x.Args, y.Args)
	})
}
