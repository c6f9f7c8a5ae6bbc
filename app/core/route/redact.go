package route

import (
	"encoding/json"

	"yui/app/view"
)

// Redacted is a received message as a trace may show it: a typed key in
// a save_settings (a preset's key and voice_key, the listening key) or a
// test_connection is replaced by "(redacted)".
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
