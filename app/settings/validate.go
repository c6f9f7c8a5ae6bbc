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
	// Suggestion, when set, is a value the field probably meant (a URL
	// without a scheme: "localhost:11434" → "http://localhost:11434"); the
	// settings window offers it.
	Suggestion string
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
		return &FieldError{Field: "version", Reason: fmt.Sprintf("unsupported version %d (this build reads 1)", s.Version)}
	}
	if len(s.Presets) == 0 {
		return &FieldError{Field: "presets", Reason: "at least one preset is needed"}
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
			return &FieldError{Field: fmt.Sprintf("presets[%d].id", i), Reason: "duplicate id " + p.ID}
		}
		if chats[p.ChatID] {
			return &FieldError{Field: fmt.Sprintf("presets[%d].chat_id", i), Reason: "duplicate chat_id " + p.ChatID}
		}
		ids[p.ID] = true
		chats[p.ChatID] = true
	}
	if !ids[s.ActivePreset] {
		return &FieldError{Field: "active_preset", Reason: fmt.Sprintf("no preset has id %q", s.ActivePreset)}
	}
	if s.Keyboard.Shortcut != "" {
		if _, err := hotkey.Parse(s.Keyboard.Shortcut); err != nil {
			return &FieldError{Field: "keyboard.shortcut", Reason: strings.TrimPrefix(err.Error(), "hotkey: ")}
		}
	}
	if err := validateAudio(s.Audio); err != nil {
		return err
	}
	if err := validateProactive(s.Proactive); err != nil {
		return err
	}
	if err := validateTalk(s.Talk); err != nil {
		return err
	}
	if err := validateLanguage(s); err != nil {
		return err
	}
	return validateListen(s.Listen, ids)
}

func validatePreset(p Preset) error {
	switch {
	case !presetIDPattern.MatchString(p.ID):
		return &FieldError{Field: "id", Reason: fmt.Sprintf("%q is not p- followed by 8 lowercase hex digits", p.ID)}
	case strings.TrimSpace(p.Name) == "":
		return &FieldError{Field: "name", Reason: "must not be empty"}
	case utf8.RuneCountInString(p.Name) > 64:
		return &FieldError{Field: "name", Reason: "longer than 64 characters"}
	case p.Look == "":
		return &FieldError{Field: "look", Reason: "must not be empty"}
	case !slices.Contains(ChatAPIs, p.ChatAPI):
		return &FieldError{Field: "chat_api", Reason: fmt.Sprintf("%q is not one of %s", p.ChatAPI, strings.Join(ChatAPIs, ", "))}
	case !chatIDPattern.MatchString(p.ChatID):
		return &FieldError{Field: "chat_id", Reason: fmt.Sprintf("%q is not yui- followed by 8 lowercase hex digits", p.ChatID)}
	case !slices.Contains(ReasoningEfforts, p.ReasoningEffort):
		return &FieldError{Field: "reasoning_effort", Reason: fmt.Sprintf("%q is not one of minimal, low, medium, high or empty", p.ReasoningEffort)}
	case p.ContextWindow < 0:
		return &FieldError{Field: "context_window", Reason: "must not be negative"}
	case !slices.Contains(ScreenModes, p.Permissions.Screen):
		return &FieldError{Field: "permissions.screen", Reason: fmt.Sprintf("%q is not one of ask, allow, deny", p.Permissions.Screen)}
	case validateBrowser(p.Permissions) != nil:
		return validateBrowser(p.Permissions)
	case p.ThreadID != "" && !threadIDPattern.MatchString(p.ThreadID):
		return &FieldError{Field: "thread_id", Reason: "a thread id is letters, digits, - and _ (up to 128), as the runtime shows it"}
	case utf8.RuneCountInString(p.AgentID) > 256 || strings.ContainsFunc(p.AgentID, unicode.IsControl):
		return &FieldError{Field: "agent_id", Reason: "an agent id is one line of at most 256 characters"}
	}
	if p.ChatBaseURL != "" {
		u, err := url.Parse(p.ChatBaseURL)
		if err != nil || u.Host == "" || !slices.Contains([]string{"http", "https", "ws", "wss"}, u.Scheme) {
			if s, ok := SuggestURL(p.ChatBaseURL); ok {
				return &FieldError{Field: "chat_base_url", Suggestion: s,
					Reason: fmt.Sprintf("base URL %q has no http:// or https:// — did you mean %s?", p.ChatBaseURL, s)}
			}
			return &FieldError{Field: "chat_base_url", Reason: fmt.Sprintf("%q is not an http(s) or ws(s) URL with a host", p.ChatBaseURL)}
		}
	}
	if err := validateMCP(p); err != nil {
		return err
	}
	if err := validateLookOptions(p.LookOptions); err != nil {
		return err
	}
	return validateVoice(p.Voice)
}

// SuggestURL is the URL a scheme-less address probably meant:
// "localhost:11434" → "http://localhost:11434", "api.example.com/v1" →
// "http://api.example.com/v1" (http: the address as typed names no TLS;
// an https server answers the test with a plain cause). ok is false when
// the text has a scheme already or does not make a URL with a host.
func SuggestURL(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.Contains(s, "://") || strings.ContainsAny(s, " \t\n") {
		return "", false
	}
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.Opaque == "" && u.Host != "" {
		return "", false // a scheme we do not take: no guess
	}
	cand := "http://" + strings.TrimPrefix(s, "//")
	u, err := url.Parse(cand)
	if err != nil || u.Hostname() == "" {
		return "", false
	}
	return cand, true
}
