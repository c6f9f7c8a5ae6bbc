package view

import "yui/app/phrase"

// Testing a connection from the settings form before it is saved.

// TestConnection asks the core to try a backend as the form has it (not
// yet saved): GET {base}/models for the request APIs, a hello for push.
// Key is a key typed in the form; without one the saved key of the preset
// is used only when the base URL is the saved one (a key goes only to the
// backend it was entered for).
type TestConnection struct {
	RequestID   string  `json:"request_id"`
	Preset      string  `json:"preset"`
	ChatAPI     string  `json:"chat_api"`
	ChatBaseURL string  `json:"chat_base_url"`
	Key         *string `json:"key,omitempty"`
	// AgentID and ThreadID are checked on a Standard Agents runtime
	// (GET /api/auth/me, /api/agents, /api/threads/<id>).
	AgentID  string `json:"agent_id,omitempty"`
	ThreadID string `json:"thread_id,omitempty"`
	// KeyFrom: a new character without a typed key is tested with that
	// saved preset's key, only on its origin (SavePreset.KeyFrom).
	KeyFrom string `json:"key_from,omitempty"`
}

// ConnectionTest answers a TestConnection. Kind is "ok" (Models lists what
// the server offers, maybe none), "refused" (the key), "unreachable" (with
// the reason in Text), "failed" (the server answered with an error) or
// "unsupported" (an API this version cannot test).
type ConnectionTest struct {
	RequestID string `json:"request_id"`
	Preset    string `json:"preset"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
	// Msg is Text as phrases, one a sentence, the page words in its
	// language (none: the page shows Text).
	Msg    []phrase.Phrase `json:"msg,omitempty"`
	Models []string        `json:"models"`
	// Cause is the failure's kind in app/conncause's terms ("refused",
	// "no_host", "timeout", "tls", "not_push", "not_api", "key", …), "" on success.
	Cause string `json:"cause,omitempty"`
	// Settings: the fix is a setting (offer the Chat API field for
	// not_push and not_api).
	Settings bool `json:"settings,omitempty"`
	// Agents are the agents a Standard Agents runtime listed (the
	// agent picker); [] otherwise.
	Agents []AgentItem `json:"agents"`
}

// AgentItem is one agent of a Standard Agents runtime.
type AgentItem struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}
