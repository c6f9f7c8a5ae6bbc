package character

import (
	"time"

	"yui/app/listen"
	"yui/app/mcp"
	"yui/app/permission"
	"yui/app/session"
	"yui/app/settings"
	"yui/app/transcript"
	"yui/app/voice"
)

// View is her page's presenter (petview.View) as she reaches it.
type View interface {
	OnMouth(voice.Mouth)
	OnVoiceError(short string)
	PublishVoice()
	Refresh(contextChanged bool)
	Close()
}

// Talk ends a chain among characters (among.Room): her user's input and
// her stops end it.
type Talk interface {
	UserSpoke()
	End(why string)
}

// Body is her body on the desktop (life.Room), shared by every character;
// she is removed from it on Close.
type Body interface{ Remove(id string) }

// Character is one character. Set her parts, then Speak, before her page
// or a room reaches her.
type Character struct {
	Preset  string
	Session *session.Session
	Speaker *voice.Speaker
	Gate    *permission.Gate
	Sites   *permission.SiteGate // the browser's open permission
	MCP     *mcp.Hub             // her MCP servers; nil when none
	History *transcript.Store    // her transcript (her history)
	View    View
	Talk    Talk
	Body    Body

	heard listen.Heard // when her voice is heard (the listener's barge-in guard)
}

// Speak makes her voice from opts (its OnMouth and OnError are hers: her
// page's mouth, the pill, the listener's barge-in guard) in voice cfg.
func (ch *Character) Speak(opts voice.Options, cfg voice.Config) {
	opts.OnMouth = func(m voice.Mouth) {
		ch.heard.Sound(m.At, time.Duration(len(m.Levels))*m.Step, m.First)
		ch.View.OnMouth(m)
	}
	opts.OnError = ch.View.OnVoiceError
	ch.Speaker = voice.New(opts, cfg)
}

// Update applies changes that need no new connection: permissions (the
// gate and the pill), context window (the usage readout), the voice
// (engine from the next sentence, volume from the next chunk, a mute at
// once).
func (ch *Character) Update(old, p settings.Preset, v voice.Config) {
	// Always handed to the gate (it changes nothing when equal), so the
	// gate follows the file even if it drifted.
	ch.Gate.SetPermissions(p.Permissions)
	ch.Sites.SetSites(p.Permissions.BrowserSites)
	ch.View.Refresh(old.ContextWindow != p.ContextWindow)
	ch.Speaker.Configure(v)
	ch.View.PublishVoice()
}

// Close ends her session (its connection and playback), her MCP servers,
// her voice and her view (its timers; her transcript is written out); she
// publishes nothing afterwards. Not from the session's OnEvent.
func (ch *Character) Close() {
	ch.Body.Remove(ch.Preset)
	ch.Session.Close()
	if ch.MCP != nil {
		ch.MCP.Close() // her stdio servers stop with her
	}
	ch.Speaker.Close()
	ch.View.Close()
}
