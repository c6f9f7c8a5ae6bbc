package settings

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"yui/app/hotkey"
)

// FieldError names the settings field that is wrong, as a JSON path such as
// "presets[0].chat_api", and why.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }

var (
	presetIDPattern = regexp.MustCompile(`^p-[0-9a-f]{8}$`)
	chatIDPattern   = regexp.MustCompile(`^yui-[0-9a-f]{8}$`)
	// threadIDPattern: a thread id goes into a URL path segment.
	threadIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)
)

// Validate checks s and returns the first wrong field as a *FieldError, or
// nil.
func Validate(s *Settings) error {
	if s.Version != 1 {
		return &FieldError{"version", fmt.Sprintf("unsupported version %d (this build reads 1)", s.Version)}
	}
	if len(s.Presets) == 0 {
		return &FieldError{"presets", "at least one preset is needed"}
	}
	ids := map[string]bool{}
	chats := map[string]bool{}
	for i, p := range s.Presets {
		if err := validatePreset(p); err != nil {
			fe := err.(*FieldError)
			fe.Field = fmt.Sprintf("presets[%d].%s", i, fe.Field)
			return fe
		}
		if ids[p.ID] {
			return &FieldError{fmt.Sprintf("presets[%d].id", i), "duplicate id " + p.ID}
		}
		if chats[p.ChatID] {
			return &FieldError{fmt.Sprintf("presets[%d].chat_id", i), "duplicate chat_id " + p.ChatID}
		}
		ids[p.ID] = true
		chats[p.ChatID] = true
	}
	if !ids[s.ActivePreset] {
		return &FieldError{"active_preset", fmt.Sprintf("no preset has id %q", s.ActivePreset)}
	}
	if s.Keyboard.Shortcut != "" {
		if _, err := hotkey.Parse(s.Keyboard.Shortcut); err != nil {
			return &FieldError{"keyboard.shortcut", strings.TrimPrefix(err.Error(), "hotkey: ")}
		}
	}
	if err := validateAudio(s.Audio); err != nil {
		return err
	}
	return validateListen(s.Listen, ids)
}

func validatePreset(p Preset) error {
	switch {
	case !presetIDPattern.MatchString(p.ID):
		return &FieldError{"id", fmt.Sprintf("%q is not p- followed by 8 lowercase hex digits", p.ID)}
	case strings.TrimSpace(p.Name) == "":
		return &FieldError{"name", "must not be empty"}
	case utf8.RuneCountInString(p.Name) > 64:
		return &FieldError{"name", "longer than 64 characters"}
	case p.Look == "":
		return &FieldError{"look", "must not be empty"}
	case !slices.Contains(ChatAPIs, p.ChatAPI):
		return &FieldError{"chat_api", fmt.Sprintf("%q is not one of %s", p.ChatAPI, strings.Join(ChatAPIs, ", "))}
	case !chatIDPattern.MatchString(p.ChatID):
		return &FieldError{"chat_id", fmt.Sprintf("%q is not yui- followed by 8 lowercase hex digits", p.ChatID)}
	case !slices.Contains(ReasoningEfforts, p.ReasoningEffort):
		return &FieldError{"reasoning_effort", fmt.Sprintf("%q is not one of minimal, low, medium, high or empty", p.ReasoningEffort)}
	case p.ContextWindow < 0:
		return &FieldError{"context_window", "must not be negative"}
	case !slices.Contains(ScreenModes, p.Permissions.Screen):
		return &FieldError{"permissions.screen", fmt.Sprintf("%q is not one of ask, allow, deny", p.Permissions.Screen)}
	case p.ThreadID != "" && !threadIDPattern.MatchString(p.ThreadID):
		return &FieldError{"thread_id", "a thread id is letters, digits, - and _ (up to 128), as the runtime shows it"}
	case utf8.RuneCountInString(p.AgentID) > 256 || strings.ContainsFunc(p.AgentID, unicode.IsControl):
		return &FieldError{"agent_id", "an agent id is one line of at most 256 characters"}
	}
	if p.ChatBaseURL != "" {
		u, err := url.Parse(p.ChatBaseURL)
		if err != nil || u.Host == "" || !slices.Contains([]string{"http", "https", "ws", "wss"}, u.Scheme) {
			return &FieldError{"chat_base_url", fmt.Sprintf("%q is not an http(s) or ws(s) URL with a host", p.ChatBaseURL)}
		}
	}
	return validateVoice(p.Voice)
}
