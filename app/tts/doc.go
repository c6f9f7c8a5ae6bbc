// Package tts turns one sentence into audio. An Engine is one way to do
// it: System runs a local synthesiser (espeak-ng, or flite) through
// os/exec with the text on stdin; Endpoint posts to an OpenAI-compatible
// speech endpoint ({base}/audio/speech). The voice package picks the
// engine a character's settings name and plays what it returns.
//
// # What an engine gets
//
// A Request carries the sentence as it should be spoken (Speakable: no
// emoji, markdown links already reduced to their labels by the caller,
// emphasis and code marks dropped), and two directions that are never
// spoken: Tone, the voice-tone tag of the cue (in the vocabulary's enum
// mode the meaning the tag table gives it, in free mode the tag itself),
// and Caption, the cue's free-text voice direction. Endpoint sends both in
// the request's instructions ("Tone: <tone>. <caption>"); System has no
// way to take directions and ignores them.
//
// # Bounds
//
// Every engine reads at most MaxBytes of audio per sentence (16 MiB by
// default, about 5 minutes of 24 kHz speech) and fails past it; a
// synthesiser's error output is kept to its first 512 bytes; the endpoint
// has a 30 s limit per request and follows no redirect (the key goes only
// to the URL it was entered for).
//
// # Errors
//
// A failed synthesis returns an *Error whose Short is a few words for the
// status pill ("voice: check the speech key") and whose Error says why in
// full, for the log. Neither ever contains the key. Engines are safe for
// concurrent use; each call is independent.
package tts
