package route

import (
	"encoding/json"

	"yui/app/view"
)

// Redacted is a received message as a trace may show it: a typed key in
// a save_settings (a preset's key and voice_key, the listening key) or a
// test_connection, and an MCP server's arguments in a mind_save (they may
// carry a token), are replaced by "(redacted)".
func Redacted(m view.Message) json.RawMessage {
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
	if m.Type == view.TypeMindSave {
		return redactMindSave(m.Body)
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

// redactMindSave hides the MCP servers' arguments of a mind_save.
func redactMindSave(body []byte) json.RawMessage {
	var v map[string]any
	if json.Unmarshal(body, &v) != nil {
		return json.RawMessage(`{"type":"` + view.TypeMindSave + `","unreadable":true}`)
	}
	if mcp, ok := v["mcp"].(map[string]any); ok {
		if ss, ok := mcp["servers"].([]any); ok {
			for _, s := range ss {
				if sm, ok := s.(map[string]any); ok && sm["args"] != nil {
					sm["args"] = "(redacted)"
				}
			}
		}
	}
	b, _ := json.Marshal(v)
	return b
}
