package petview

import (
	"strings"

	"yui/app/transcript"
)

// Said records what she said to another character (address_character) in
// her message window: "Yui → Mika: …". The addressed one's window shows
// the same line from her turn (TurnSent.From).
func (v *View) Said(to, text string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.characterRow("", v.name()+" → "+to+": "+text)
}

// characterRow adds a line between characters. Called with mu held.
func (v *View) characterRow(turnID, line string) {
	if v.cfg.Transcript == nil || strings.TrimSpace(line) == "" {
		return
	}
	v.sendEntry(v.cfg.Transcript.Add(transcript.Entry{TurnID: turnID, Kind: transcript.KindCharacter, Text: line}))
}

// name is her display name as saved now.
func (v *View) name() string {
	if p, ok := v.cfg.Host.Preset(v.id); ok {
		return p.Name
	}
	return v.id
}
