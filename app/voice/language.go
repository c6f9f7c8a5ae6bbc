package voice

import (
	"yui/app/i18n"
	"yui/app/tts"
)

// InLanguage is c speaking lang: when the system engine runs espeak-ng
// with its default voice (no voice chosen), the voice becomes the one that
// reads lang (tts.ESpeakVoiceFor). A chosen voice, flite and the endpoint
// are left alone (the OpenAI speech API has no language field; its voices
// speak the language of the text).
func (c Config) InLanguage(lang i18n.Lang) Config {
	prog := c.System.Program
	if c.System.Voice == "" && (prog == "" || prog == tts.ESpeak) {
		c.System.Voice = tts.ESpeakVoiceFor(lang)
	}
	return c
}
