package listen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"regexp"
	"strings"
	"time"

	"yui/app/audio"
	"yui/transport"
	"yui/transport/httpapi"
)

// Transcription endpoint defaults and bounds.
const (
	DefaultModel = "whisper-1"
	// RequestTimeout bounds one transcription request.
	RequestTimeout = 30 * time.Second
	// maxResponse bounds the answer read (a transcript of 15 s of speech
	// is a few hundred bytes).
	maxResponse = 64 << 10
)

// Where a failure is fixed: the settings section the pill's "fix" opens.
const (
	FixEndpoint = "listen-endpoint" // no URL, a URL the server does not know, unreachable
	FixKey      = "listen-key"      // the key was refused
	FixDevice   = "listen-device"   // no microphone, no sound server
)

// Error is a failure with a short text for the pill and the settings
// section that fixes it.
type Error struct {
	Short string // e.g. "listening: check the transcription key"
	Fix   string // FixEndpoint, FixKey, FixDevice
	Err   error
}

func (e *Error) Error() string { return e.Short + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Transcriber turns an utterance into text.
type Transcriber interface {
	// Transcribe returns what was said ("" for nothing). Errors are
	// *Error, or ctx's error when it was cancelled.
	Transcribe(ctx context.Context, pcm audio.PCM) (string, error)
}

// Endpoint is an OpenAI-compatible transcription endpoint: POST
// {BaseURL}/audio/transcriptions, multipart with file (a WAV), model,
// language (when set) and response_format json; the key as a bearer
// token. It is safe for concurrent use.
type Endpoint struct {
	// BaseURL is the API base, e.g. "https://api.openai.com/v1".
	BaseURL string
	// Key is sent as "Authorization: Bearer <key>"; "" sends none. It is
	// sent only to BaseURL (no redirect is followed) and never logged.
	Key string
	// Model; "" is DefaultModel.
	Model string
	// Language is an ISO-639-1 hint ("en"); "" lets the server detect it.
	Language string
	// Client makes the requests; nil is httpapi's (the environment's proxy,
	// never for loopback). No redirect is followed either way (it could
	// carry the key and the recording elsewhere); a request is bounded by
	// RequestTimeout.
	Client *http.Client
}

// defaultClient is shared by the endpoints made without a Client.
var defaultClient = httpapi.NewClient()

// Transcribe implements Transcriber.
func (e *Endpoint) Transcribe(ctx context.Context, pcm audio.PCM) (string, error) {
	u, err := httpapi.JoinURL(e.BaseURL, "/audio/transcriptions")
	if err != nil {
		return "", &Error{Short: "listening: set the transcription endpoint", Fix: FixEndpoint, Err: err}
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "speech.wav")
	fw.Write(audio.EncodeWAV(pcm))
	model := strings.TrimSpace(e.Model)
	if model == "" {
		model = DefaultModel
	}
	mw.WriteField("model", model)
	if l := strings.TrimSpace(e.Language); l != "" {
		mw.WriteField("language", l)
	}
	mw.WriteField("response_format", "json")
	mw.Close()

	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	req, err := httpapi.NewRequest(ctx, http.MethodPost, u, e.Key, &body)
	if err != nil {
		return "", &Error{Short: "listening: set the transcription endpoint", Fix: FixEndpoint, Err: err}
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	client := defaultClient
	if e.Client != nil {
		client = httpapi.Guard(e.Client)
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return "", ctx.Err()
		}
		return "", &Error{Short: "listening: can't reach the transcription endpoint", Fix: FixEndpoint, Err: transport.RedactKeyError(transport.RedactError(err), e.Key)}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return "", ctx.Err()
		}
		return "", &Error{Short: "listening: can't reach the transcription endpoint", Fix: FixEndpoint, Err: transport.RedactKeyError(transport.RedactError(err), e.Key)}
	}
	if resp.StatusCode != http.StatusOK {
		return "", statusError(resp.StatusCode, transport.RedactKey(httpapi.ErrorText(b, resp.Header.Get("Content-Type")), e.Key))
	}
	if len(b) > maxResponse {
		return "", &Error{Short: "listening: the transcription endpoint sent too much", Fix: FixEndpoint, Err: fmt.Errorf("listen: answer over %d bytes", maxResponse)}
	}
	var out struct {
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(b, &out); err != nil || out.Text == nil {
		// A server that ignores response_format may answer text/plain.
		if ct := resp.Header.Get("Content-Type"); strings.HasPrefix(ct, "text/plain") {
			return strings.TrimSpace(string(b)), nil
		}
		return "", &Error{Short: "listening: the transcription endpoint sent no text", Fix: FixEndpoint, Err: fmt.Errorf("listen: answer is not {\"text\": …}")}
	}
	return strings.TrimSpace(*out.Text), nil
}

// statusError is the failure of an error answer with the server's text
// (one line, the key cut out), by its status.
func statusError(code int, msg string) error {
	err := fmt.Errorf("listen: transcription endpoint answered %d: %s", code, msg)
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return &Error{Short: "listening: check the transcription key", Fix: FixKey, Err: err}
	case code == http.StatusNotFound:
		return &Error{Short: "listening: check the transcription endpoint URL", Fix: FixEndpoint, Err: err}
	case code == http.StatusTooManyRequests:
		return &Error{Short: "listening: the transcription endpoint is busy", Fix: FixEndpoint, Err: err}
	case code >= 300 && code < 400:
		return &Error{Short: "listening: the transcription endpoint redirected", Fix: FixEndpoint, Err: err}
	}
	return &Error{Short: fmt.Sprintf("listening: transcription error %d", code), Fix: FixEndpoint, Err: err}
}

// nonSpeech matches a transcript made only of bracketed or parenthesised
// tags ("[BLANK_AUDIO]", "(silence)", "[Music]", "*coughs*"), ellipses
// and punctuation: what recognisers write for audio without words.
var nonSpeech = regexp.MustCompile(`^(?:\s|[.,!?…\-–—"'♪]|\[[^\]]*\]|\([^)]*\)|\*[^*]*\*|<[^>]*>)*$`)

// Blank reports whether a transcript carries no words to send.
func Blank(text string) bool { return nonSpeech.MatchString(text) }
