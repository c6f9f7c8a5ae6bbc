package pet

import (
	"yui/transport"
)

// mcpTools is the request transport's MoreTools: the hub's tools on a
// request wire; nil on push and Standard Agents (their backends bring
// their own tools) or without servers.
func mcpTools(cfg Config) func() []transport.Tool {
	if cfg.MCP == nil || !IsRequestWire(cfg.Preset.ChatAPI) {
		return nil
	}
	return cfg.MCP.Tools
}

// MCPApplies reports whether a chat_api takes MCP servers (the request
// wires only).
func MCPApplies(chatAPI string) bool { return IsRequestWire(chatAPI) }
