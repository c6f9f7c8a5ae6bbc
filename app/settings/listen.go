package settings

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Listen is how Yui hears the user (docs/voice.md, "Listening"): shared by
// every character, since there is one microphone.
type Listen struct {
	// On is always-on listening. Off (the default), the microphone opens
	// only while push-to-talk is held.
	On bool `json:"on"`
	// Device is the capture source's name; "" picks an echo-cancelled
	// source when the sound server has one, else the default.
	Device string `json:"device"`
	// Sensitivity is 1–100; 0 (absent) is 50.
	Sensitivity int `json:"sensitivity,omitempty"`
	// BargeIn lets the user's speech interrupt a character who talks.
	BargeIn bool `json:"barge_in"`
	// BaseURL, Key, Model and Language configure the OpenAI-compatible
	// transcription endpoint; its key is its own (never the chat key) and
	// is never logged.
	BaseURL  string `json:"base_url"`
	Key      string `json:"key"`
	Model    string `json:"model"`
	Language string `json:"language"`
	// Target is the id of the preset spoken turns go to; "" is the main
	// character (the active preset).
	Target string `json:"target,omitempty"`
	// PushToTalkKey is the key held in a pet window to talk ("" is F8).
	PushToTalkKey string `json:"push_to_talk_key,omitempty"`
}

// DefaultPushToTalkKey is the push-to-talk key when none is chosen.
const DefaultPushToTalkKey = "F8"

// PushToTalkKeys are the keys push-to-talk may use: keys a pet window
// sees without taking them from typing.
var PushToTalkKeys = []string{"", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12", "Pause", "ScrollLock", "Insert"}

// SensitivityPercent is Sensitivity with 0 read as 50.
func (l Listen) SensitivityPercent() int {
	if l.Sensitivity == 0 {
		return 50
	}
	return l.Sensitivity
}

// PushToTalk is PushToTalkKey with "" read as DefaultPushToTalkKey.
func (l Listen) PushToTalk() string {
	if l.PushToTalkKey == "" {
		return DefaultPushToTalkKey
	}
	return l.PushToTalkKey
}

var languagePattern = regexp.MustCompile(`^[a-z]{2,3}$`)

// validateListen checks the listening settings; ids are the presets' ids.
func validateListen(l Listen, ids map[string]bool) error {
	f := func(field, reason string) error { return &FieldError{Field: "listen." + field, Reason: reason} }
	switch {
	case l.Sensitivity < 0 || l.Sensitivity > 100:
		return f("sensitivity", "must be 1 to 100")
	case utf8.RuneCountInString(l.Device) > 256 || hasControl(l.Device):
		return f("device", "longer than 256 characters or has control characters")
	case len(l.Key) > 4096 || hasControl(l.Key):
		return f("key", "longer than 4096 bytes or has control characters")
	case utf8.RuneCountInString(l.Model) > 128 || hasControl(l.Model):
		return f("model", "longer than 128 characters or has control characters")
	case l.Language != "" && !languagePattern.MatchString(l.Language):
		return f("language", fmt.Sprintf("%q is not an ISO-639-1 code such as en", l.Language))
	case l.Target != "" && !ids[l.Target]:
		return f("target", fmt.Sprintf("no preset has id %q", l.Target))
	}
	found := false
	for _, k := range PushToTalkKeys {
		found = found || k == l.PushToTalkKey
	}
	if !found {
		return f("push_to_talk_key", fmt.Sprintf("%q is not one of %s", l.PushToTalkKey, strings.Join(PushToTalkKeys[1:], ", ")))
	}
	if l.BaseURL != "" {
		u, err := url.Parse(l.BaseURL)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || len(l.BaseURL) > 2048 {
			return f("base_url", "must be an http(s) URL with a host")
		}
	}
	return nil
}
