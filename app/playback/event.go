package playback

import "yui/app/cue"

// Kind names an event; the values match the console's event names.
type Kind string

// Event kinds.
const (
	SpeechStart  Kind = "speech_start"
	SpeechEnd    Kind = "speech_end"
	CueFired     Kind = "cue"
	UtteranceEnd Kind = "utterance_end"
	Idle         Kind = "idle"
)

// Event is one step of playback.
type Event struct {
	Kind   Kind
	TurnID string   // every kind but Idle
	Text   string   // SpeechStart/SpeechEnd: the sentence's bubble text; UtteranceEnd: what was spoken
	Cue    cue.Cue  // CueFired
	Muted  bool     // SpeechStart/SpeechEnd: shown, not voiced
	Err    error    // SpeechEnd: the voice failed; the sentence was shown without it
	Line   LineKind // SpeechStart/SpeechEnd: a client line (Say); "" for reply speech
}

// Cut is what an Interrupt dropped of one utterance.
type Cut struct {
	TurnID   string
	Spoken   string // sentences whose speech started, joined with one space
	Unspoken string // sentences still owed, joined with one space
}
