package listen

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/audio"
)

type seen struct {
	mu       sync.Mutex
	auth     string
	ct       string
	fields   map[string]string
	file     []byte
	filename string
	path     string
}

func transcriptionServer(t *testing.T, status int, answer string) (*httptest.Server, *seen) {
	t.Helper()
	s := &seen{fields: map[string]string{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.path, s.auth, s.ct = r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type")
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		for k, v := range r.MultipartForm.Value {
			s.fields[k] = v[0]
		}
		if fh := r.MultipartForm.File["file"]; len(fh) == 1 {
			s.filename = fh[0].Filename
			f, _ := fh[0].Open()
			s.file, _ = io.ReadAll(f)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, answer)
	}))
	t.Cleanup(srv.Close)
	return srv, s
}

func clip() audio.PCM {
	return audio.PCM{Format: audio.Format{Rate: Rate, Channels: 1}, Samples: pcm16(speech(time.Second, -25, 140))}
}

func TestTranscriptionRequestShape(t *testing.T) {
	srv, s := transcriptionServer(t, 200, `{"text":"  what time is it  "}`)
	e := &Endpoint{BaseURL: srv.URL + "/v1/", Key: "sk-listen", Model: "whisper-large", Language: "en"}
	got, err := e.Transcribe(context.Background(), clip())
	if err != nil || got != "what time is it" {
		t.Fatalf("got %q, %v", got, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.path != "/v1/audio/transcriptions" || s.auth != "Bearer sk-listen" || !strings.HasPrefix(s.ct, "multipart/form-data") {
		t.Errorf("path %q auth %q content-type %q", s.path, s.auth, s.ct)
	}
	if s.fields["model"] != "whisper-large" || s.fields["language"] != "en" || s.fields["response_format"] != "json" {
		t.Errorf("fields %v", s.fields)
	}
	if s.filename != "speech.wav" {
		t.Errorf("file name %q", s.filename)
	}
	pcm, err := audio.ParseWAV(s.file)
	if err != nil || pcm.Rate != 16000 || pcm.Channels != 1 || len(pcm.Samples) != Rate {
		t.Fatalf("file: %v %v %d samples", err, pcm.Format, len(pcm.Samples))
	}
	if want := clip().Samples; pcm.Samples[1000] != want[1000] {
		t.Errorf("samples differ")
	}
}

func TestTranscriptionDefaultsAndNoLanguage(t *testing.T) {
	srv, s := transcriptionServer(t, 200, `{"text":"hi"}`)
	e := &Endpoint{BaseURL: srv.URL}
	if _, err := e.Transcribe(context.Background(), clip()); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fields["model"] != DefaultModel || s.auth != "" {
		t.Errorf("model %q auth %q", s.fields["model"], s.auth)
	}
	if _, ok := s.fields["language"]; ok {
		t.Errorf("language sent unasked: %v", s.fields)
	}
}

func TestTranscriptionErrors(t *testing.T) {
	for _, c := range []struct {
		status int
		body   string
		fix    string
		short  string
	}{
		{401, `{"error":{"message":"bad key sk-secret"}}`, FixKey, "listening: check the transcription key"},
		{403, `nope`, FixKey, "listening: check the transcription key"},
		{404, `no`, FixEndpoint, "listening: check the transcription endpoint URL"},
		{500, `boom`, FixEndpoint, "listening: transcription error 500"},
		{200, `{"nothing":1}`, FixEndpoint, "listening: the transcription endpoint sent no text"},
	} {
		srv, _ := transcriptionServer(t, c.status, c.body)
		_, err := (&Endpoint{BaseURL: srv.URL, Key: "sk-secret"}).Transcribe(context.Background(), clip())
		var le *Error
		if !errors.As(err, &le) || le.Fix != c.fix || le.Short != c.short {
			t.Errorf("%d: %v", c.status, err)
			continue
		}
		if strings.Contains(err.Error(), "sk-secret") {
			t.Errorf("%d: the key is in the error: %v", c.status, err)
		}
	}
	_, err := (&Endpoint{}).Transcribe(context.Background(), clip())
	var le *Error
	if !errors.As(err, &le) || le.Fix != FixEndpoint {
		t.Errorf("no URL: %v", err)
	}
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	_, err = (&Endpoint{BaseURL: srv.URL}).Transcribe(context.Background(), clip())
	if !errors.As(err, &le) || le.Short != "listening: can't reach the transcription endpoint" {
		t.Errorf("unreachable: %v", err)
	}
}

func TestTranscriptionFollowsNoRedirect(t *testing.T) {
	var hit bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit = true }))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/audio/transcriptions", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	_, err := (&Endpoint{BaseURL: srv.URL, Key: "k"}).Transcribe(context.Background(), clip())
	if err == nil || hit {
		t.Fatalf("redirect followed: %v hit=%v", err, hit)
	}
}

func TestTranscriptionAnswerBounded(t *testing.T) {
	srv, _ := transcriptionServer(t, 200, `{"text":"`+strings.Repeat("a", maxResponse)+`"}`)
	_, err := (&Endpoint{BaseURL: srv.URL}).Transcribe(context.Background(), clip())
	if err == nil {
		t.Fatal("an answer over the bound was taken")
	}
}

func TestBlank(t *testing.T) {
	for _, s := range []string{"", "  ", "[BLANK_AUDIO]", "(silence)", "[ Silence ]", "[Music] ♪", "*coughs*", "...", "<noise>"} {
		if !Blank(s) {
			t.Errorf("Blank(%q) = false", s)
		}
	}
	for _, s := range []string{"hi", "[BLANK_AUDIO] hello", "what time is it?", "(laughs) okay"} {
		if Blank(s) {
			t.Errorf("Blank(%q) = true", s)
		}
	}
}
