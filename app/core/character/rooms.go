package character

import (
	"time"

	"yui/app/mcp"
	"yui/app/permission"
	"yui/app/voice"
)

// Her page's actions (petview.Character).

// SendTyped sends a typed line (and images); her user spoke.
func (ch *Character) SendTyped(text string, images [][]byte) (string, error) {
	ch.Talk.UserSpoke()
	return ch.Session.SendTyped(text, images)
}

// Stop stops her turn and ends a chain among characters.
func (ch *Character) Stop() { ch.Talk.End("stop"); ch.Session.Stop() }

// Reconnect makes her connection anew.
func (ch *Character) Reconnect() { ch.Session.Reconnect() }

// Reset starts a new conversation and ends a chain among characters.
func (ch *Character) Reset() { ch.Talk.End("new_conversation"); ch.Session.Reset() }

// AnswerPrompt answers the prompt id: her MCP tools', the browser's or
// the screen gate's.
func (ch *Character) AnswerPrompt(id uint64, c permission.Choice) error {
	if mcp.IsPrompt(id) && ch.MCP != nil {
		return ch.MCP.Answer(id, c)
	}
	if permission.IsSitePrompt(id) {
		return ch.Sites.Answer(id, c)
	}
	return ch.Gate.Answer(id, c)
}

// CaptureEachTurn reports the screen gate's "each turn".
func (ch *Character) CaptureEachTurn() bool { return ch.Gate.EachTurn() }

// Voiced reports whether her voice is heard (not silent timing).
func (ch *Character) Voiced() bool { return ch.Speaker.Voiced() }

// The ear hears and stops her (ear.Character).

// ID is her preset's id.
func (ch *Character) ID() string { return ch.Preset }

// Speaking reports whether her voice is heard at now, and until when.
func (ch *Character) Speaking(now time.Time) (bool, time.Time) { return ch.heard.Speaking(now) }

// SendSpoken sends what the user said to her.
func (ch *Character) SendSpoken(text string) { ch.Talk.UserSpoke(); ch.Session.SendSpoken(text) }

// BargeIn stops her reply: the user speaks over her.
func (ch *Character) BargeIn() { ch.Session.BargeIn() }

// Her voice as the voices room sets it (voices.Voice).

// Configure gives her speaker its voice.
func (ch *Character) Configure(cfg voice.Config) { ch.Speaker.Configure(cfg) }

// PublishVoice tells her page the mute state for its menu.
func (ch *Character) PublishVoice() { ch.View.PublishVoice() }

// SetMuted mutes or unmutes her alone (her menu's Mute); muting her ends
// a chain among characters, as Mute all voices does.
func (ch *Character) SetMuted(on bool) {
	if on {
		ch.Talk.End("mute")
	}
	ch.Speaker.SetMuted(on)
}
