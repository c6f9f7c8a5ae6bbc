package tts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"yui/app/audio"
)

// Response formats of the speech endpoint.
const (
	FormatWAV = "wav"
	FormatPCM = "pcm" // raw s16le, 24 kHz mono (OpenAI's definition)
)

// PCMRate is the sample rate of the endpoint's pcm format.
const PCMRate = 24000

// Endpoint defaults.
const (
	DefaultModel = "gpt-4o-mini-tts"
	DefaultVoice = "alloy"
	// RequestTimeout bounds one speech request.
	RequestTimeout = 30 * time.Second
)

// Endpoint is an OpenAI-compatible speech endpoint: POST
// {BaseURL}/audio/speech with {model, voice, input, response_format,
// instructions} and the key as a bearer token.
type Endpoint struct {
	// BaseURL is the API base, e.g. "https://api.openai.com/v1".
	BaseURL string
	// Key is sent as "Authorization: Bearer <key>"; "" sends none. It is
	// sent only to BaseURL (no redirect is followed) and never logged.
	Key string
	// Model and Voice; "" are DefaultModel and DefaultVoice.
	Model string
	Voice string
	// Format is FormatWAV (the default) or FormatPCM.
	Format string
	// MaxBytes bounds the audio of one sentence; 0 is DefaultMaxBytes.
	MaxBytes int64
	// Client makes the requests; nil is a client of its own with
	// RequestTimeout.
	Client *http.Client
}

// speechRequest is the request body.
type speechRequest struct {
	Model          string `json:"model"`
	Voice          string `json:"voice"`
	Input          string `json:"input"`
	ResponseFormat string `json:"response_format"`
	Instructions   string `json:"instructions,omitempty"`
}

var defaultClient = &http.Client{
	Timeout: RequestTimeout,
	// A redirect could carry the key elsewhere (and would turn the POST
	// into a GET): none is followed.
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// Synthesize implements Engine.
func (e *Endpoint) Synthesize(ctx context.Context, r Request) (audio.PCM, error) {
	u, err := speechURL(e.BaseURL)
	if err != nil {
		return audio.PCM{}, &Error{Short: "voice: set the speech endpoint URL", Err: err}
	}
	format := e.Format
	if format == "" {
		format = FormatWAV
	}
	body, _ := json.Marshal(speechRequest{
		Model:          or(e.Model, DefaultModel),
		Voice:          or(e.Voice, DefaultVoice),
		Input:          r.Text,
		ResponseFormat: format,
		Instructions:   Instructions(r.Tone, r.Caption),
	})
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return audio.PCM{}, &Error{Short: "voice: set the speech endpoint URL", Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	if format == FormatWAV {
		req.Header.Set("Accept", "audio/wav")
	} else {
		req.Header.Set("Accept", "audio/pcm")
	}
	if e.Key != "" {
		req.Header.Set("Authorization", "Bearer "+e.Key)
	}
	client := e.Client
	if client == nil {
		client = defaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
			return audio.PCM{}, ctx.Err()
		}
		return audio.PCM{}, &Error{Short: "voice: can't reach the speech endpoint", Err: redact(err, e.Key)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return audio.PCM{}, statusError(resp, e.Key)
	}
	limit := e.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	var pcm audio.PCM
	if format == FormatPCM {
		pcm, err = audio.ReadPCM(resp.Body, audio.Format{Rate: PCMRate, Channels: 1}, limit)
	} else {
		pcm, err = audio.DecodeWAV(resp.Body, limit)
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
			return audio.PCM{}, ctx.Err()
		}
		return audio.PCM{}, &Error{Short: "voice: the speech endpoint sent no usable audio", Err: redact(err, e.Key)}
	}
	return pcm, nil
}

// speechURL is base + "/audio/speech" for an http(s) base with a host.
func speechURL(base string) (string, error) {
	base = strings.TrimSpace(base)
	if base == "" {
		return "", errors.New("tts: no speech endpoint URL")
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("tts: %q is not an http(s) URL with a host", base)
	}
	return strings.TrimRight(base, "/") + "/audio/speech", nil
}

// statusError reads a failed response's message (at most 512 bytes, the
// first line, an OpenAI error object's message when it is one).
func statusError(resp *http.Response, key string) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
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
	err := fmt.Errorf("tts: speech endpoint answered %d: %s", resp.StatusCode, msg)
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		return &Error{Short: "voice: check the speech key", Err: err}
	case http.StatusTooManyRequests:
		return &Error{Short: "voice: the speech endpoint is busy", Err: err}
	case http.StatusNotFound:
		return &Error{Short: "voice: check the speech endpoint URL", Err: err}
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return &Error{Short: "voice: the speech endpoint redirected", Err: err}
	}
	return &Error{Short: fmt.Sprintf("voice: speech endpoint error %d", resp.StatusCode), Err: err}
}

// redact removes the key from an error's text (a URL that embeds it).
func redact(err error, key string) error {
	if key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), key, "(key)"))
}

func or(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return strings.TrimSpace(s)
}
