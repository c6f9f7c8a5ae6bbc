package settings

import (
	"crypto/rand"
	"encoding/hex"
)

// DemoBaseURL is where the embedded demo backend listens.
const DemoBaseURL = "http://127.0.0.1:8646"

// Defaults returns the first-run settings: one preset, "Yui", on the
// embedded demo backend, with a fresh preset id, chat_id and demo key.
func Defaults() Settings {
	p := NewPreset("Yui")
	p.ChatAPI = "push"
	p.ChatBaseURL = DemoBaseURL
	p.Key = "demo-" + randomHex(8)
	return Settings{Version: 1, ActivePreset: p.ID, Presets: []Preset{p}}
}

// NewPreset returns an enabled preset with the given name, a new id and a new
// chat_id, and no backend configured.
func NewPreset(name string) Preset {
	return Preset{
		ID:          "p-" + randomHex(4),
		Name:        name,
		Enabled:     true,
		Look:        "yui",
		ChatAPI:     "push",
		ChatID:      NewChatID(),
		Permissions: Permissions{Screen: "ask"},
	}
}

// NewChatID returns "yui-" followed by 8 lowercase hex digits from a CSPRNG.
func NewChatID() string { return "yui-" + randomHex(4) }

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never returns an error (crypto/rand, Go 1.24+)
	return hex.EncodeToString(b)
}
