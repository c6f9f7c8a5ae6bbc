package settingsui

import (
	"yui/app/core/backend"
	"yui/app/phrase"
	"yui/app/settings"
	"yui/app/view"
)

// backendNote is what the settings window shows about a preset's last
// backend change, until it no longer applies.
type backendNote struct {
	origin string // the backend the note is about
	key    bool   // the key was dropped and none was typed since
	screen bool   // screen permissions were taken back by the last save
}

// notesAfterSave computes the notes after an accepted save: this save's
// changes, and earlier key notes of presets that still have no key on the
// same backend. Screen notes last one save.
func notesAfterSave(prev map[string]backendNote, changes map[string]*backend.Change, after settings.Settings) map[string]backendNote {
	out := map[string]backendNote{}
	for _, p := range after.Presets {
		if ch := changes[p.ID]; ch != nil {
			if ch.KeyDropped || ch.ScreenReset {
				out[p.ID] = backendNote{origin: ch.To, key: ch.KeyDropped, screen: ch.ScreenReset}
			}
			continue
		}
		if n, ok := prev[p.ID]; ok && n.key && p.Key == "" && backend.Origin(p.ChatBaseURL) == n.origin {
			out[p.ID] = backendNote{origin: n.origin, key: true}
		}
	}
	return out
}

// apply puts the note's words in the form.
func (n backendNote) apply(f *view.PresetForm) {
	where := n.origin
	if where == "" {
		where = "no backend"
	}
	if n.key {
		m := phrase.New("core.note.key_removed", "where", where)
		f.KeyNote, f.KeyNoteMsg = m.English(), m.Ptr()
	}
	if n.screen {
		m := phrase.New("core.note.screen_reset", "where", where)
		f.ScreenNote, f.ScreenNoteMsg = m.English(), m.Ptr()
	}
}
