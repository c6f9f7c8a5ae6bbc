package settings

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// systemVoicePattern is what a synthesiser voice name may hold: letters,
// digits and - _ + . / (espeak-ng's "en-us+f3", "gmw/en-US"); it never
// starts with "-", so it cannot read as an option.
var systemVoicePattern = regexp.MustCompile(`^[A-Za-z0-9_+./][A-Za-z0-9_+./-]{0,63}$`)

// validateVoice checks a preset's voice; fields are named relative to the
// preset ("voice.engine").
func validateVoice(v Voice) error {
	if err := validateVoiceFields(v); err != nil {
		return err
	}
	if err := validateVoiceURL(v.BaseURL); err != nil {
		return err
	}
	return validateEmotionTextMap(v.EmotionTextMap)
}

// voiceField is the error for the voice's field name.
func voiceField(name, reason string) error {
	return &FieldError{Field: "voice." + name, Reason: reason}
}

// validateVoiceFields checks the voice's single-valued fields, in the
// order a form shows them.
func validateVoiceFields(v Voice) error {
	f := voiceField
	switch {
	case !slices.Contains(VoiceEngines, v.Engine):
		return f("engine", fmt.Sprintf("%q is not one of system, endpoint, off", v.Engine))
	case !slices.Contains(VoicePrograms, v.Program):
		return f("program", fmt.Sprintf("%q is not one of espeak-ng, flite", v.Program))
	case v.SystemVoice != "" && !systemVoicePattern.MatchString(v.SystemVoice):
		return f("system_voice", "use letters, digits and - _ + . / only (at most 64), not starting with -")
	case v.Rate != 0 && (v.Rate < MinVoiceRate || v.Rate > MaxVoiceRate):
		return f("rate", fmt.Sprintf("%d is not between %d and %d words per minute", v.Rate, MinVoiceRate, MaxVoiceRate))
	case utf8.RuneCountInString(v.Model) > 128 || hasControl(v.Model):
		return f("model", "longer than 128 characters or has control characters")
	case utf8.RuneCountInString(v.EndpointVoice) > 64 || hasControl(v.EndpointVoice):
		return f("endpoint_voice", "longer than 64 characters or has control characters")
	case !slices.Contains(VoiceFormats, v.Format):
		return f("format", fmt.Sprintf("%q is not one of wav, pcm", v.Format))
	case len(v.Key) > 4096 || hasControl(v.Key):
		return f("key", "longer than 4096 bytes or has control characters")
	case v.Volume != nil && (*v.Volume < 0 || *v.Volume > 100):
		return f("volume", fmt.Sprintf("%d is not between 0 and 100", *v.Volume))
	case len(v.EmotionTextMap) > MaxEmotionTextTags:
		return f("emotion_text_map", fmt.Sprintf("%d tags; at most %d", len(v.EmotionTextMap), MaxEmotionTextTags))
	}
	return nil
}

// validateVoiceURL checks the speech endpoint's base URL (empty is
// allowed); a URL missing its scheme gets a suggestion.
func validateVoiceURL(base string) error {
	if base == "" {
		return nil
	}
	u, err := url.Parse(base)
	if err == nil && u.Host != "" && (u.Scheme == "http" || u.Scheme == "https") {
		return nil
	}
	if s, ok := SuggestURL(base); ok {
		return &FieldError{Field: "voice.base_url",
			Reason:     fmt.Sprintf("speech endpoint URL %q has no http:// or https:// — did you mean %s?", base, s),
			Suggestion: s}
	}
	return voiceField("base_url", "not an http(s) URL with a host")
}

// validateEmotionTextMap checks each tag and its meaning, tags in sorted
// order so the first bad one named is always the same.
func validateEmotionTextMap(m map[string]string) error {
	f := voiceField
	tags := make([]string, 0, len(m))
	for tag := range m {
		tags = append(tags, tag)
	}
	slices.Sort(tags)
	for _, tag := range tags {
		meaning := m[tag]
		switch {
		case strings.TrimSpace(tag) != tag || tag == "" || utf8.RuneCountInString(tag) > 32 || hasControl(tag):
			return f("emotion_text_map", fmt.Sprintf("tag %q: 1 to 32 characters, no surrounding spaces", tag))
		case strings.TrimSpace(meaning) == "" || utf8.RuneCountInString(meaning) > 120 || hasControl(meaning):
			return f("emotion_text_map", fmt.Sprintf("the meaning of %q: 1 to 120 characters on one line", tag))
		}
	}
	return nil
}

// validateAudio checks the shared sound settings.
func validateAudio(a Audio) error {
	if utf8.RuneCountInString(a.Device) > 256 || hasControl(a.Device) {
		return &FieldError{Field: "audio.device", Reason: "longer than 256 characters or has control characters"}
	}
	return nil
}

func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}
