package settings

import (
	"errors"
	"strings"
	"testing"
)

func TestSuggestURL(t *testing.T) {
	for in, want := range map[string]string{
		"localhost:11434":     "http://localhost:11434",
		"127.0.0.1:8080/v1":   "http://127.0.0.1:8080/v1",
		"api.example.com/v1":  "http://api.example.com/v1",
		" localhost:11434 ":   "http://localhost:11434",
		"//host.example:9000": "http://host.example:9000",
	} {
		if got, ok := SuggestURL(in); !ok || got != want {
			t.Errorf("SuggestURL(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "http://x", "ftp://x", "not a url", "https://"} {
		if got, ok := SuggestURL(in); ok {
			t.Errorf("SuggestURL(%q) suggested %q", in, got)
		}
	}
}

// A scheme-less base URL is refused with the field named, the reason in
// words and the suggestion to offer; ftp:// gets no guess.
func TestSchemelessURLRefusedWithASuggestion(t *testing.T) {
	s := Defaults()
	s.Presets[0].ChatBaseURL = "localhost:11434"
	var fe *FieldError
	if err := Validate(&s); !errors.As(err, &fe) {
		t.Fatalf("accepted: %v", err)
	}
	if fe.Field != "presets[0].chat_base_url" || fe.Suggestion != "http://localhost:11434" ||
		!strings.Contains(fe.Reason, "did you mean http://localhost:11434?") || !strings.Contains(fe.Reason, "base URL") {
		t.Fatalf("refusal %+v", fe)
	}
	s.Presets[0].ChatBaseURL = "ftp://x"
	if err := Validate(&s); !errors.As(err, &fe) || fe.Suggestion != "" {
		t.Fatalf("ftp: %+v", fe)
	}
	s.Presets[0].ChatBaseURL = "http://127.0.0.1:8646"
	s.Presets[0].Voice.Engine = "endpoint"
	s.Presets[0].Voice.BaseURL = "localhost:8880/v1"
	if err := Validate(&s); !errors.As(err, &fe) || fe.Field != "presets[0].voice.base_url" || fe.Suggestion != "http://localhost:8880/v1" {
		t.Fatalf("voice: %v", err)
	}
}
