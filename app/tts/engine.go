package tts

import (
	"context"
	"strings"

	"yui/app/audio"
)

// DefaultMaxBytes bounds the audio one sentence may produce.
const DefaultMaxBytes = 16 << 20

// Request is one sentence to synthesise.
type Request struct {
	// Text is what to say (see Speakable).
	Text string
	// Tone is the voice-tone direction from the cue's emotion_text; "" for
	// none. Never spoken.
	Tone string
	// Caption is the cue's free-text voice direction; "" for none. Never
	// spoken.
	Caption string
}

// Engine synthesises sentences. Implementations are safe for concurrent
// use and return early with ctx's error when it is cancelled.
type Engine interface {
	Synthesize(ctx context.Context, r Request) (audio.PCM, error)
}

// Error is a failed synthesis: Short for the status pill, the rest for
// the log.
type Error struct {
	Short string // e.g. "voice: check the speech key"
	Err   error
}

func (e *Error) Error() string { return e.Short + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// ShortText is the pill's few words for err: its Short when it is an
// *Error, else "voice error".
func ShortText(err error) string {
	for err != nil {
		if e, ok := err.(*Error); ok {
			return e.Short
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			break
		}
		err = u.Unwrap()
	}
	return "voice error"
}

// Instructions joins tone and caption into one direction for engines
// that take one: "Tone: <tone>. <caption>", either part left out when
// empty.
func Instructions(tone, caption string) string {
	var parts []string
	if t := strings.TrimSpace(tone); t != "" {
		parts = append(parts, "Tone: "+strings.TrimRight(t, ".")+".")
	}
	if c := strings.TrimSpace(caption); c != "" {
		parts = append(parts, c)
	}
	return strings.Join(parts, " ")
}

// limitedBuffer keeps the first n bytes written to it.
type limitedBuffer struct {
	n int
	b []byte
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.n - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return strings.TrimSpace(string(l.b)) }
