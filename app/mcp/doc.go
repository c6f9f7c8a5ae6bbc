// Package mcp gives a character on a request wire (Chat Completions,
// Responses) the tools of the MCP servers the user added to her preset
// (docs/mcp.md), through the official Go SDK
// (github.com/modelcontextprotocol/go-sdk).
//
// A Hub is one character's servers: a command started over stdio, with a
// clean environment (no key of Yui's reaches it) and stopped with her, or
// a streamable HTTP URL. Their tools are offered as transport.Tools named
// mcp_<server>__<tool> (Name), read by the transport at each turn
// (request.Config.MoreTools); the pill shows each run.
//
// The first call of each tool asks the user (allow once, always, deny;
// the prompt rides the screen permission's prompt slot with an id of its
// own, IsPrompt); always and deny are saved per character and tool.
// Every call is bounded: ConnectWait to start a server, CallWait for the
// answer, MaxResultBytes of result, MaxMessageBytes per message. A server
// that hangs, crashes or floods answers a clear error and is restarted
// with back-off (BackoffMin doubling to BackoffMax).
package mcp
