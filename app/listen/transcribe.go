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
	"net/url"
	"regexp"
	"strings"
	"time"

	"yui/app/audio"
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
	// Client makes the requests; nil is one with RequestTimeout that
	// follows no redirect.
	Client *http.Client
}

var defaultClient = &http.Client{
	Timeout: RequestTimeout,
	// A redirect could carry the key and the recording elsewhere.
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// transcriptionURL is base + "/audio/transcriptions" for an http(s) base
// with a host.
func transcriptionURL(base string) (string, error) {
	base = strings.TrimSpace(base)
	if base == "" {
		return "", errors.New("listen: no transcription endpoint URL")
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("listen: %q is not an http(s) URL with a host", base)
	}
	return strings.TrimRight(base, "/") + "/audio/transcriptions", nil
}

// Transcribe implements Transcriber.
func (e *Endpoint) Transcribe(ctx context.Context, pcm audio.PCM) (string, error) {
	u, err := transcriptionURL(e.BaseURL)
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
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, &body)
	if err != nil {
		return "", &Error{Short: "listening: set the transcription endpoint", Fix: FixEndpoint, Err: err}
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	if e.Key != "" {
		req.Header.Set("Authorization", "Bearer "+e.Key)
	}
	client := e.Client
	if client == nil {
		client = defaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return "", ctx.Err()
		}
		return "", &Error{Short: "listening: can't reach the transcription endpoint", Fix: FixEndpoint, Err: redact(err, e.Key)}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return "", ctx.Err()
		}
		return "", &Error{Short: "listening: can't reach the transcription endpoint", Fix: FixEndpoint, Err: redact(err, e.Key)}
	}
	if resp.StatusCode != http.StatusOK {
		return "", statusError(resp.StatusCode, b, e.Key)
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

// statusError reads a failed answer's message (its first line, an
// OpenAI error object's message when it is one), without the key.
func statusError(code int, b []byte, key string) error {
	if len(b) > 512 {
		b = b[:512]
	}
	msg := strings.TrimSpace(string(b))
	var obj struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &obj) == nil && obj.Error.Message != "" {
		msg = obj.Error.Message
	}
	if i := strings.IndexAny(msg, "\r\n"); i >= 0 {
		msg = msg[:i]
	}
	if key != "" {
		msg = strings.ReplaceAll(msg, key, "(key)")
	}
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

func redact(err error, key string) error {
	if key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), key, "(key)"))
}

// nonSpeech matches a transcript made only of bracketed or parenthesised
// tags ("[BLANK_AUDIO]", "(silence)", "[Music]", "*coughs*"), ellipses
// and punctuation: what recognisers write for audio without words.
var nonSpeech = regexp.MustCompile(`^(?:\s|[.,!?…\-–—"'♪]|\[[^\]]*\]|\([^)]*\)|\*[^*]*\*|<[^>]*>)*$`)

// Blank reports whether a transcript carries no words to send.
func Blank(text string) bool { return nonSpeech.MatchString(text) }
