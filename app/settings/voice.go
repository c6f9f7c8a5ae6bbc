package settings

import "maps"

// Voice is how a character speaks (issue 15). The zero value is the
// system voice with its defaults, at full volume, not muted.
type Voice struct {
	// Engine is one of VoiceEngines; "" is "system".
	Engine string `json:"engine"`
	// Program is the system voice's synthesiser, one of VoicePrograms;
	// "" is "espeak-ng".
	Program string `json:"program,omitempty"`
	// SystemVoice is the synthesiser's voice name ("en-us", "en-us+f3",
	// flite's "slt"); "" is its default.
	SystemVoice string `json:"system_voice,omitempty"`
	// Rate is the system voice's rate in words per minute, MinVoiceRate to
	// MaxVoiceRate; 0 is 175.
	Rate int `json:"rate,omitempty"`
	// BaseURL is the speech endpoint's API base (POST {base}/audio/speech).
	BaseURL string `json:"base_url,omitempty"`
	// Key is the speech endpoint's key, its own (never the chat key). It
	// is never logged and never sent to a page.
	Key string `json:"key,omitempty"`
	// Model and EndpointVoice are the endpoint's model and voice; "" are
	// gpt-4o-mini-tts and alloy.
	Model         string `json:"model,omitempty"`
	EndpointVoice string `json:"endpoint_voice,omitempty"`
	// Format is the endpoint's response_format, one of VoiceFormats; "" is
	// "wav".
	Format string `json:"format,omitempty"`
	// EmotionTextMap is the endpoint's emotion_text tag table (tag →
	// meaning). With entries the character's vocabulary is in enum mode:
	// the backend picks tags from it and the meaning goes with the speech
	// request. Empty is free mode.
	EmotionTextMap map[string]string `json:"emotion_text_map,omitempty"`
	// Volume is 0 to 100; nil is 100.
	Volume *int `json:"volume,omitempty"`
	// Muted mutes this character (the bubble still shows).
	Muted bool `json:"muted,omitempty"`
}

// Audio is the sound settings shared by every character.
type Audio struct {
	// Muted mutes every character.
	Muted bool `json:"muted"`
	// Device is the output sink's name; "" is the default device.
	Device string `json:"device"`
}

// VoiceEngines are the accepted values of Voice.Engine ("" is system).
var VoiceEngines = []string{"", "system", "endpoint", "off"}

// VoicePrograms are the accepted values of Voice.Program ("" is espeak-ng).
var VoicePrograms = []string{"", "espeak-ng", "flite"}

// VoiceFormats are the accepted values of Voice.Format ("" is wav).
var VoiceFormats = []string{"", "wav", "pcm"}

// Voice bounds.
const (
	MinVoiceRate       = 80
	MaxVoiceRate       = 450
	MaxEmotionTextTags = 32
)

// EngineName is Engine with "" read as "system".
func (v Voice) EngineName() string {
	if v.Engine == "" {
		return "system"
	}
	return v.Engine
}

// VolumePercent is Volume with nil read as 100.
func (v Voice) VolumePercent() int {
	if v.Volume == nil {
		return 100
	}
	return *v.Volume
}

// clone copies the map and the volume.
func (v Voice) clone() Voice {
	if v.Volume != nil {
		n := *v.Volume
		v.Volume = &n
	}
	v.EmotionTextMap = maps.Clone(v.EmotionTextMap)
	return v
}
