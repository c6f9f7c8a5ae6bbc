package companion

import (
	"time"

	"yui/app/clientctx"
	"yui/app/frontmost"
	"yui/app/proactive"
)

// Presence is the OS's word on the user: input idle, typing, a fullscreen
// window (app/presence).
type Presence interface {
	proactive.Input
	Fullscreen() bool
}

// Cast is the Host the core gives the room: the saved settings and the
// running characters, reached through the narrow parts below.
type Cast struct {
	Store Store
	// Running reports whether preset id's character runs.
	Running func(id string) bool
	// Hidden reports whether her window is hidden.
	Hidden func(id string) bool
	// Turn starts a turn of preset id's character (false: she does not run).
	Turn func(id, text string, trigger clientctx.Trigger) bool
	// OnQuiet is told the quiet switches changed.
	OnQuiet func()
}

// Characters are the enabled, running characters, the main one first.
func (c Cast) Characters() []Character {
	all := c.Store.Get()
	var out []Character
	for _, p := range all.Presets {
		if !p.Enabled || !c.Running(p.ID) {
			continue
		}
		ch := Character{ID: p.ID, Hidden: c.Hidden(p.ID), Muted: all.Audio.Muted || p.Voice.Muted,
			TellsApp: !p.Permissions.HideFrontmost}
		if p.ID == all.ActivePreset {
			out = append([]Character{ch}, out...)
		} else {
			out = append(out, ch)
		}
	}
	return out
}

// StartTurn starts her turn with an empty utterance.
func (c Cast) StartTurn(id string, trigger clientctx.Trigger) { c.Turn(id, "", trigger) }

// QuietChanged passes the change on.
func (c Cast) QuietChanged() { c.OnQuiet() }

var _ Host = Cast{}

// FrontScreen is the frontmost window (the tracker the context block
// reads) and fullscreen (Presence, nil: never) on the proactive clock.
type FrontScreen struct {
	Front    *frontmost.Tracker
	Presence Presence
	Now      func() time.Time
	// Scale is the clock's speed-up (1: none).
	Scale float64
}

// Frontmost is the user's app and window, since when on the clock.
func (s FrontScreen) Frontmost() (string, string, time.Time, bool) {
	f := s.Front.Current()
	if f == nil {
		return "", "", time.Time{}, false
	}
	// The tracker keeps real time; the engine may run scaled.
	since := s.Now().Add(-time.Duration(float64(time.Since(f.Since)) * s.Scale))
	return f.App, f.Title, since, true
}

// Fullscreen reports a fullscreen window.
func (s FrontScreen) Fullscreen() bool { return s.Presence != nil && s.Presence.Fullscreen() }

var _ proactive.Screen = FrontScreen{}
