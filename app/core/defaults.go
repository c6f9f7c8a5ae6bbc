package core

import (
	"log/slog"

	"yui/app/capture"
	"yui/app/frontmost"
	"yui/app/hotkey"
	"yui/app/perch"
	"yui/app/presence"
)

// system fills what o leaves nil with the system's parts: the screen and
// the frontmost window; and, when the core runs windows, the global
// shortcut, the perches (on a display it can reach: else none, and
// body_action answers unsupported) and the word on the user (presence).
// The pointer is the system's from Run on (startGaze).
func (o Options) system(lg *slog.Logger) Options {
	if o.Screen == nil {
		o.Screen = capture.NewSystem(lg)
	}
	if o.Windows == nil {
		o.Windows = frontmost.System()
	}
	if o.NoWindows {
		return o
	}
	if o.Hotkeys == nil {
		o.Hotkeys = hotkey.System()
	}
	if o.Perches == nil && perch.Available() {
		o.Perches = perch.System()
	}
	if o.Presence == nil {
		o.Presence = presence.New("")
	}
	return o
}
