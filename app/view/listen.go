package view

import "yui/app/phrase"

// Listening (docs/voice.md, "Listening"): the pill's voice segment, push-
// to-talk from the pet page, the settings window's Listening section and
// its level meter.
const (
	TypeListen         = "listen"          // ListenState, core → pet page (sticky)
	TypeListenHold     = "listen_hold"     // ListenHold, pet page → core
	TypeListenTarget   = "listen_target"   // no fields, pet page → core: spoken turns go to this character
	TypeSettingsListen = "settings_listen" // SettingsListen, core → settings page (sticky)
	TypeListenMeter    = "listen_meter"    // ListenMeter, settings page → core
	TypeListenLevel    = "listen_level"    // ListenLevel, core → settings page
)

// SectionListen is the settings form's Listening section (OpenSettings,
// SettingsFocus); the pill's "fix" opens it.
const SectionListen = "listen"

// ListenState is the status pill's voice segment. Mode is off, listening
// (the microphone is open: the pill shows it), hearing (an utterance is
// being recorded), sending (it is being transcribed) or error (Error is
// the short text, Fix the part of the Listening section that fixes it:
// listen-endpoint, listen-key, listen-device). Open is true while the
// microphone is open. PushToTalkKey is the key the page watches
// (KeyboardEvent.key); Target is true on the character spoken turns go
// to.
type ListenState struct {
	Mode          string `json:"mode"`
	Error         string `json:"error,omitempty"`
	Fix           string `json:"fix,omitempty"`
	Open          bool   `json:"open"`
	PushToTalkKey string `json:"push_to_talk_key"`
	Target        bool   `json:"target"`
}

// ListenHold is push-to-talk: Held true when the key goes down, false when
// it comes up (or the window loses focus).
type ListenHold struct {
	Held bool `json:"held"`
}

// ListenForm mirrors settings.Listen without the key (HasKey;
// SaveSettings carries ListenKey only when typed).
type ListenForm struct {
	On            bool   `json:"on"`
	Device        string `json:"device"`
	Sensitivity   int    `json:"sensitivity"`
	BargeIn       bool   `json:"barge_in"`
	BaseURL       string `json:"base_url"`
	Model         string `json:"model"`
	Language      string `json:"language"`
	Target        string `json:"target"`
	PushToTalkKey string `json:"push_to_talk_key"`
	HasKey        bool   `json:"has_key"`
}

// SettingsListen is the Listening section: the saved form, the capture
// devices (the automatic choice first; Available false for a saved
// device not there now), the push-to-talk keys, and Note, one line when
// something is wrong (no sound server).
type SettingsListen struct {
	Form    ListenForm `json:"form"`
	Devices []Choice   `json:"devices"`
	Keys    []Choice   `json:"keys"`
	Note    string     `json:"note"`
	// NoteMsg is Note as a phrase.
	NoteMsg *phrase.Phrase `json:"note_msg,omitempty"`
}

// ListenMeter turns the level meter on while the section is visible.
type ListenMeter struct {
	On bool `json:"on"`
}

// ListenLevel is one 100 ms chunk's loudness on a 0–100 scale (−80 dBFS to
// 0), with the noise floor and the level speech must pass to count, on
// the same scale.
type ListenLevel struct {
	Level     int `json:"level"`
	Floor     int `json:"floor"`
	Threshold int `json:"threshold"`
}
