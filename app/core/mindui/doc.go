// Package mindui is the settings window's "What she remembers" section
// (docs/memory.md, docs/mcp.md): each character's memory (the running
// summary and the facts, app/memory) and her MCP servers with the answers
// saved from their prompts (app/settings mcp_servers, mcp_grants). It
// publishes settings_mind (sticky) and applies mind_save at once, apart
// from the form's Save, answering mind_result. Push and Standard Agents
// characters are listed with Applies false and a note: their backends keep
// their own memory and tools.
package mindui
