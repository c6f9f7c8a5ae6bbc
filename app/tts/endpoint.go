package tts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"yui/app/audio"
	"yui/transport"
	"yui/transport/httpapi"
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
	// Client makes the requests; nil is httpapi's (the environment's proxy,
	// never for loopback). No redirect is followed either way; a request
	// is bounded by RequestTimeout.
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

// defaultClient is shared by the endpoints made without a Client (one
// connection pool for the speech endpoint).
var defaultClient = httpapi.NewClient()

// Synthesize implements Engine.
func (e *Endpoint) Synthesize(ctx context.Context, r Request) (audio.PCM, error) {
	u, err := httpapi.JoinURL(e.BaseURL, "/audio/speech")
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
	req, err := httpapi.NewRequest(ctx, http.MethodPost, u, e.Key, bytes.NewReader(body))
	if err != nil {
		return audio.PCM{}, &Error{Short: "voice: set the speech endpoint URL", Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	if format == FormatWAV {
		req.Header.Set("Accept", "audio/wav")
	} else {
		req.Header.Set("Accept", "audio/pcm")
	}
	client := defaultClient
	if e.Client != nil {
		client = httpapi.Guard(e.Client)
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
			return audio.PCM{}, ctx.Err()
		}
		return audio.PCM{}, &Error{Short: "voice: can't reach the speech endpoint", Err: transport.RedactKeyError(transport.RedactError(err), e.Key)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return audio.PCM{}, statusError(httpapi.ReadError(resp, e.Key))
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
		return audio.PCM{}, &Error{Short: "voice: the speech endpoint sent no usable audio", Err: transport.RedactKeyError(err, e.Key)}
	}
	return pcm, nil
}

// statusError is the failure of an error answer, by its status.
func statusError(se *httpapi.StatusError) error {
	err := fmt.Errorf("tts: speech endpoint answered %d: %s", se.Status, se.Text)
	switch se.Status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return &Error{Short: "voice: check the speech key", Err: err}
	case http.StatusTooManyRequests:
		return &Error{Short: "voice: the speech endpoint is busy", Err: err}
	case http.StatusNotFound:
		return &Error{Short: "voice: check the speech endpoint URL", Err: err}
	}
	if se.Status >= 300 && se.Status < 400 {
		return &Error{Short: "voice: the speech endpoint redirected", Err: err}
	}
	return &Error{Short: fmt.Sprintf("voice: speech endpoint error %d", se.Status), Err: err}
}

func or(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return strings.TrimSpace(s)
}
