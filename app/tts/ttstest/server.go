package ttstest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/audio"
)

// Request is what one request carried.
type Request struct {
	Path           string
	Auth           string // the Authorization header
	Model          string
	Voice          string
	Input          string
	ResponseFormat string
	Instructions   string
	// Received is when the request arrived.
	Received time.Time
}

// Options configure a Server.
type Options struct {
	// Key, when set, is required as "Bearer <Key>" (401 otherwise).
	Key string
}

// Server is a running test speech server.
type Server struct {
	// URL is the API base to configure ("http://127.0.0.1:port/v1").
	URL  string
	opts Options
	bin  string
	srv  *httptest.Server

	mu       sync.Mutex
	requests []Request
	fail     map[int]int // request number (from 1) → status to answer
}

// Start runs a server for the test; it stops at cleanup.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	bin, err := exec.LookPath("espeak-ng")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("ttstest: no espeak-ng (CI=true: the speech tests must run): %v", err)
		}
		t.Skipf("ttstest: no espeak-ng: %v", err)
	}
	s := &Server{opts: o, bin: bin, fail: map[int]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.srv.Close)
	return s
}

// Fail makes request number n (counted from 1) answer status.
func (s *Server) Fail(n, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail[n] = status
}

// Requests returns what every request so far carried, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// voices maps OpenAI's voice names onto espeak-ng voices; others speak
// en-us.
var voices = map[string]string{
	"alloy": "en-us", "echo": "en-us+m3", "fable": "en-gb", "onyx": "en-us+m7",
	"nova": "en-us+f3", "shimmer": "en-us+f4", "coral": "en-us+f2", "sage": "en-us+f5",
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/audio/speech" {
		httpError(w, http.StatusNotFound, "no such route")
		return
	}
	var body struct {
		Model          string `json:"model"`
		Voice          string `json:"voice"`
		Input          string `json:"input"`
		ResponseFormat string `json:"response_format"`
		Instructions   string `json:"instructions"`
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		httpError(w, http.StatusBadRequest, "bad request: "+err.Error())
		return
	}
	// Read to the end, so the server notices a client that goes away
	// (r's context ends) while its speech is synthesised.
	io.Copy(io.Discard, r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Model: body.Model,
		Voice: body.Voice, Input: body.Input, ResponseFormat: body.ResponseFormat, Instructions: body.Instructions,
		Received: time.Now()})
	n := len(s.requests)
	status := s.fail[n]
	s.mu.Unlock()
	if s.opts.Key != "" && r.Header.Get("Authorization") != "Bearer "+s.opts.Key {
		httpError(w, http.StatusUnauthorized, "Incorrect API key provided")
		return
	}
	if status != 0 {
		httpError(w, status, fmt.Sprintf("injected failure %d", status))
		return
	}
	if strings.TrimSpace(body.Input) == "" {
		httpError(w, http.StatusBadRequest, "input is empty")
		return
	}
	voice, ok := voices[body.Voice]
	if !ok {
		voice = "en-us"
	}
	cmd := exec.CommandContext(r.Context(), s.bin, "--stdin", "--stdout", "-b", "1", "-v", voice)
	cmd.Stdin = strings.NewReader(body.Input + "\n")
	switch body.ResponseFormat {
	case "wav", "":
		// espeak-ng's WAV goes out as it is written: RIFF and data sizes
		// are placeholders, as from any server that streams.
		w.Header().Set("Content-Type", "audio/wav")
		cmd.Stdout = w
		if err := cmd.Run(); err != nil && r.Context().Err() == nil {
			fmt.Fprintf(os.Stderr, "ttstest: espeak-ng: %v\n", err)
		}
	case "pcm":
		out, err := cmd.Output()
		if err != nil {
			httpError(w, http.StatusInternalServerError, "espeak-ng: "+err.Error())
			return
		}
		pcm, err := audio.ParseWAV(out)
		if err != nil {
			httpError(w, http.StatusInternalServerError, err.Error())
			return
		}
		w.Header().Set("Content-Type", "audio/pcm")
		w.Write(audio.Bytes(audio.Resample(pcm, 24000).Samples))
	default:
		httpError(w, http.StatusBadRequest, "unsupported response_format "+body.ResponseFormat)
	}
}

func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
}
