package among

import (
	"strings"

	"yui/app/clientctx"
	"yui/app/settings"
)

// Cast is the Host the core gives the room: the saved settings and the
// running characters, reached through the narrow parts below.
type Cast struct {
	Store interface{ Get() settings.Settings }
	// Names names a character (standings.Names).
	Names interface{ Name(id string) string }
	// Shown reports whether preset id's character runs with her window
	// shown.
	Shown func(id string) bool
	// Turn starts a turn of preset id's character with text as the
	// utterance; false when she does not run.
	Turn func(id, text string, trigger clientctx.Trigger) bool
	// Say shows, in preset id's message window, text she said to the
	// character named to.
	Say func(id, to, text string)
}

// Find is an enabled character with a running session, not hidden.
func (c Cast) Find(name string) (string, bool) {
	for _, p := range c.Store.Get().Presets {
		if !p.Enabled || !strings.EqualFold(strings.TrimSpace(p.Name), strings.TrimSpace(name)) {
			continue
		}
		if !c.Shown(p.ID) {
			return "", false
		}
		return p.ID, true
	}
	return "", false
}

// Name is a character's display name.
func (c Cast) Name(id string) string { return c.Names.Name(id) }

// StartTurn starts her turn from the character named from.
func (c Cast) StartTurn(id, from, text string) bool {
	return c.Turn(id, text, clientctx.FromCharacter(from))
}

// Said shows the exchange in the speaker's message window.
func (c Cast) Said(fromID, toID, text string) { c.Say(fromID, c.Name(toID), text) }

// Talk is the manners' settings now.
func (c Cast) Talk() settings.Talk { return c.Store.Get().Talk }

var _ Host = Cast{}
