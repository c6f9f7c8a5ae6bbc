package view

import "yui/app/phrase"

// What she remembers and her MCP servers (docs/memory.md, docs/mcp.md):
// the settings window's section of each character on a request wire.
const (
	TypeSettingsMind = "settings_mind" // SettingsMind, core → settings page (sticky)
	TypeMindSave     = "mind_save"     // MindSave, settings page → core
	TypeMindResult   = "mind_result"   // MindResult, core → settings page
)

// SectionMind is the settings form's "What she remembers" section
// (OpenSettings, SettingsFocus).
const SectionMind = "mind"

// SettingsMind is every character's memory and MCP servers.
type SettingsMind struct {
	Presets []MindPreset `json:"presets"`
}

// MindPreset is one character's: Applies is false on push and Standard
// Agents (their backends keep their own memory and tools; Note says so),
// the rest as saved.
type MindPreset struct {
	ID      string `json:"id"`
	Applies bool   `json:"applies"`
	Note    string `json:"note,omitempty"`
	// NoteMsg is Note as a phrase.
	NoteMsg *phrase.Phrase  `json:"note_msg,omitempty"`
	Summary string          `json:"summary"`
	Facts   []string        `json:"facts"`
	Servers []MCPServerForm `json:"servers"`
	Grants  []MCPGrantForm  `json:"grants"`
}

// MCPServerForm mirrors settings.MCPServer.
type MCPServerForm struct {
	Name    string   `json:"name"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
	URL     string   `json:"url"`
	Off     bool     `json:"off"`
}

// MCPGrantForm is one saved answer to a tool's prompt: Mode allow or deny.
type MCPGrantForm struct {
	Tool string `json:"tool"`
	Mode string `json:"mode"`
}

// MindSave saves one character's memory (Memory set: the summary and
// facts as edited; empty clears them) or her MCP servers and saved
// answers (MCP set), at once, apart from the form's Save.
type MindSave struct {
	RequestID string      `json:"request_id"`
	Preset    string      `json:"preset"`
	Memory    *MemoryForm `json:"memory,omitempty"`
	MCP       *MCPForm    `json:"mcp,omitempty"`
}

// MemoryForm is what she remembers as the user edited it.
type MemoryForm struct {
	Summary string   `json:"summary"`
	Facts   []string `json:"facts"`
}

// MCPForm is her MCP servers and saved answers as the user edited them.
type MCPForm struct {
	Servers []MCPServerForm `json:"servers"`
	Grants  []MCPGrantForm  `json:"grants"`
}

// MindResult answers a MindSave: OK, or Error and the Field it names
// ("summary", "facts", "mcp_servers[0].url", …).
type MindResult struct {
	RequestID string `json:"request_id"`
	OK        bool   `json:"ok"`
	Field     string `json:"field,omitempty"`
	Error     string `json:"error,omitempty"`
}
